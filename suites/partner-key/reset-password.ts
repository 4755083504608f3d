/**
 * Reset password (spec §4.1): for a user of the tenant, an action URL the caller may deliver to
 * the user. Its field is not named: TACK_RESET_URL_FIELD, or else the URL-valued member whose name
 * says what it is (action, reset, url, link, href), or else the first absolute URL in the body
 * (src/harness/clients/fields.ts). A relative action URL beside some other absolute link fails.
 * The URL itself is never printed (it likely carries a one-time secret).
 */
import { isAbsoluteHttpUrl } from '../../src/harness/clients/fields.js';
import { finding } from '../../src/checks/finding.js';
import type { TestCase } from '../../src/runner/test-case.js';
import { success } from '../../src/checks/response.js';
import { createMember } from '../../src/steps/members.js';

export const resetPassword: TestCase = {
  id: 'partner-key/reset-password',
  title: 'Reset password returns an absolute http(s) action URL',
  rules: ['PARTNER-RESET-PASSWORD'],
  needs: ['partner'],
  async run(t) {
    const email = await createMember(t, 'reset');
    const { res, url } = await t.partner.resetPassword(email);
    t.check('PARTNER-RESET-PASSWORD', 'reset password for a member answers 2xx', success(res));
    const where = t.target.fields.resetUrl ? `field ${t.target.fields.resetUrl} (TACK_RESET_URL_FIELD)` : 'the body';
    const absolute = url !== undefined && isAbsoluteHttpUrl(url.value);
    t.check(
      'PARTNER-RESET-PASSWORD',
      'the answer carries an absolute http(s) action URL',
      finding(absolute, `an absolute http(s) URL in ${where}`, url ? `${url.field} is not an absolute http(s) URL` : 'none found'),
    );
    t.observe('PARTNER-RESET-PASSWORD', `action URL found in ${url!.field}`);
    const stranger = await t.partner.resetPassword(t.names.email('reset-stranger'));
    t.observe('PARTNER-RESET-PASSWORD', `reset password for an e-mail the tenant does not know answered ${stranger.res.status} (the spec gives no status)`);
  },
};
