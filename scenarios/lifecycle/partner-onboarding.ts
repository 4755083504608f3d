/**
 * Partner onboarding, as a partner's integration meets the spec (§4.1): create the user, learn that
 * creating it again is a conflict, mint its tokens, call the API, refresh, find that tenant A's
 * refresh token is worthless at tenant B (when B's key is configured), send a password reset.
 * The API calls are judged where the hook can give the user something to read; otherwise they are
 * left to partner-key/mint and partner-key/refresh, which know TACK_USER_EMAIL.
 */
import fc from 'fast-check';
import { userDraft, withEmail } from '../../fixtures/users.js';
import { isAbsoluteHttpUrl } from '../../src/harness/clients/fields.js';
import { finding } from '../../src/checks/finding.js';
import type { TestCase } from '../../src/runner/test-case.js';
import { expectUserData } from '../../src/steps/listing.js';
import { searchPages } from '../../src/steps/paging.js';
import { isSuccess, status, success } from '../../src/checks/response.js';
import { refusedWithoutToken } from '../../src/checks/refusal.js';
import { tokenInBody } from '../../src/steps/members.js';

export const partnerOnboarding: TestCase = {
  id: 'scenario/partner-onboarding',
  title: 'Partner onboarding: create → 409 on repeat → mint → search → refresh → cross-tenant refresh refused → reset password',
  rules: ['PARTNER-CREATE-USER', 'PARTNER-CREATE-DUPLICATE', 'PARTNER-MINT', 'PARTNER-REFRESH', 'PARTNER-REFRESH-CROSS-TENANT', 'PARTNER-RESET-PASSWORD'],
  needs: ['partner'],
  async run(t) {
    // Required fields only: the optional ones are PARTNER-CREATE-OPTIONAL's to judge.
    const draft = fc.sample(userDraft({ optional: 'none' }), { seed: t.fc.seed, numRuns: 1 })[0]!;
    const user = withEmail(draft, t.names.email('onboarding'));

    // 1. Create the user.
    const created = await t.partner.createUser({ ...user });
    t.soft('PARTNER-CREATE-USER', '1. create the user', status(created, 201));
    if (!isSuccess(created)) return;
    const reads = t.readers.canGrant ? await t.readers.grant(t.target.tenant, user.email) : undefined;

    // 2. Creating it again is a conflict.
    t.soft('PARTNER-CREATE-DUPLICATE', '2. create the same user again', status(await t.partner.createUser({ ...user }), 409));

    // 3. Mint its tokens.
    const minted = await t.partner.mint(user.email);
    t.check('PARTNER-MINT', '3. mint: 2xx', success(minted.res));
    t.check('PARTNER-MINT', '3. mint: an access token', finding(minted.access !== undefined, 'an access token', 'none found'));
    t.soft('PARTNER-MINT', '3. mint: a refresh token', finding(minted.refresh !== undefined, 'a refresh token', 'none found'));

    // 4. Call the API with it.
    if (reads)
      expectUserData(
        t,
        'PARTNER-MINT',
        '4. search with the minted token lists what the user reads',
        await searchPages(t, t.target.baseUrl, minted.access!.value),
        reads,
        { soft: true },
      );

    // 5. Refresh with the same key at the same host; the new access token works.
    let newest = minted.refresh?.value;
    if (newest !== undefined) {
      const refreshed = await t.partner.refresh(newest);
      t.check('PARTNER-REFRESH', '5. refresh: 2xx', success(refreshed.res));
      t.check('PARTNER-REFRESH', '5. refresh: an access token', finding(refreshed.access !== undefined, 'an access token', 'none found'));
      if (reads)
        expectUserData(
          t,
          'PARTNER-REFRESH',
          '5. search with the refreshed token lists what the user reads',
          await searchPages(t, t.target.baseUrl, refreshed.access!.value),
          reads,
          { soft: true },
        );
      newest = refreshed.refresh?.value ?? newest;
    }

    // 6. Tenant A's refresh token at tenant B, with B's valid key: refused (needs B's key).
    if (newest !== undefined && t.target.otherPartner && t.target.otherBaseUrl) {
      const res = (await t.otherPartner.refresh(newest)).res;
      t.soft('PARTNER-REFRESH-CROSS-TENANT', "6. A's refresh token at B's host with B's key", refusedWithoutToken(res, tokenInBody(t, res)));
    } else if (newest !== undefined) {
      t.observe('PARTNER-REFRESH-CROSS-TENANT', "step 6 not run: tenant B's key is not configured (TACK_OTHER_BASE_URL, TACK_OTHER_PARTNER_*)");
    }

    // 7. Send a password reset.
    const reset = await t.partner.resetPassword(user.email);
    if (reset.ambiguous !== undefined) {
      t.observe('PARTNER-RESET-PASSWORD', `7. reset password: several absolute URLs, none named like an action (set TACK_RESET_URL_FIELD)`);
      return;
    }
    const ok = isSuccess(reset.res) && reset.url !== undefined && isAbsoluteHttpUrl(reset.url.value);
    t.soft(
      'PARTNER-RESET-PASSWORD',
      '7. reset password: an absolute action URL',
      finding(
        ok,
        '2xx with an absolute http(s) URL',
        `${reset.res.status}${reset.url ? (ok ? '' : `, ${reset.url.field} is not absolute`) : ', no URL found'}`,
      ),
    );
  },
};
