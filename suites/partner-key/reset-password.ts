/**
 * Reset password (spec §4.1): for a user of the tenant, an action URL the caller may deliver to
 * the user. Its field is not named: TACK_RESET_URL_FIELD, or else the URL-valued member whose name
 * says what it is (action, reset, url, link, href), or else the one absolute URL in the body
 * (src/harness/clients/fields.ts). A relative action URL beside some other absolute link fails; a
 * self link, a link to the API's own resources (the user) or a metadata link (help, $schema) is no
 * action URL, so an answer with only those fails too. Several unnamed absolute URLs: which is the
 * action is not known, so the check is skipped, naming TACK_RESET_URL_FIELD.
 * The URL itself is never printed (it likely carries a one-time secret). For an e-mail that is not
 * a user of the tenant (unknown, or a user of tenant B only), no action URL (SHOULD, §5: the key
 * acts for its own tenant's users): a 4xx, or an answer without one.
 */
import { isAbsoluteHttpUrl } from '../../src/harness/clients/fields.js';
import { finding } from '../../src/checks/finding.js';
import type { TestCase } from '../../src/runner/test-case.js';
import { success } from '../../src/checks/response.js';
import { createMember } from '../../src/steps/members.js';
import { noActionUrl } from '../../src/checks/refusal.js';
import type { TestPart } from '../../src/runner/needs.js';

export const resetPassword: TestCase = {
  id: 'partner-key/reset-password',
  title: 'Reset password returns an absolute http(s) action URL',
  rules: ['PARTNER-RESET-PASSWORD'],
  needs: ['partner'],
  async run(t) {
    const email = await createMember(t, 'reset');
    const { res, url, ambiguous } = await t.partner.resetPassword(email);
    t.check('PARTNER-RESET-PASSWORD', 'reset password for a member answers 2xx', success(res));
    if (ambiguous !== undefined) {
      const reason = `several absolute URLs (${ambiguous.join(', ')}), none named like an action: set TACK_RESET_URL_FIELD to the action URL's field`;
      t.unverified('PARTNER-RESET-PASSWORD', 'the answer carries an absolute http(s) action URL', reason);
      return;
    }
    const where = t.target.fields.resetUrl ? `field ${t.target.fields.resetUrl} (TACK_RESET_URL_FIELD)` : 'the body';
    const absolute = url !== undefined && isAbsoluteHttpUrl(url.value);
    t.check(
      'PARTNER-RESET-PASSWORD',
      'the answer carries an absolute http(s) action URL',
      finding(absolute, `an absolute http(s) URL in ${where}`, url ? `${url.field} is not an absolute http(s) URL` : 'none found'),
    );
    t.observe('PARTNER-RESET-PASSWORD', `action URL found in ${url!.field}`);
  },
};

/** A user of tenant B, made with B's key: the sharper case (the address exists, in another tenant). */
const OTHER_TENANTS_USER: TestPart = {
  rule: 'PARTNER-RESET-TENANT-SCOPE',
  title: "reset password at tenant A's host for a user of tenant B only",
  needs: ['other-partner'],
};

export const resetTenantScope: TestCase = {
  id: 'partner-key/reset-tenant-scope',
  title: 'Reset password for an e-mail that is not a user of the tenant returns no action URL',
  rules: ['PARTNER-RESET-TENANT-SCOPE'],
  needs: ['partner'],
  parts: [OTHER_TENANTS_USER],
  async run(t) {
    const strangers = [{ what: 'an e-mail no tenant knows', email: t.names.email('reset-stranger') }];
    if (t.can(OTHER_TENANTS_USER)) strangers.push({ what: OTHER_TENANTS_USER.title, email: await createMember(t, 'reset-other-tenant', t.otherPartner) });
    for (const { what, email } of strangers) {
      const { res, url, ambiguous } = await t.partner.resetPassword(email);
      if (res.status >= 500) t.unverified('PARTNER-RESET-TENANT-SCOPE', what, `answered ${res.status}: no answer to judge (PARTNER-NO-SERVER-ERROR)`);
      else if (ambiguous !== undefined && res.status < 400)
        t.unverified(
          'PARTNER-RESET-TENANT-SCOPE',
          what,
          `several absolute URLs (${ambiguous.join(', ')}), none named like an action: set TACK_RESET_URL_FIELD`,
        );
      else t.soft('PARTNER-RESET-TENANT-SCOPE', what, noActionUrl(res, url?.field));
    }
  },
};
