/**
 * Partner onboarding, as a partner's integration meets the spec (§4.1): create the user, learn that
 * creating it again is a conflict, mint its tokens, call the API, refresh, find that tenant A's
 * refresh token is worthless at tenant B (when B's key is configured), send a password reset.
 */
import fc from 'fast-check';
import { userDraft, withEmail } from '../fixtures/users.js';
import { isAbsoluteHttpUrl } from '../src/harness/clients/fields.js';
import type { TestCase } from '../src/harness/types.js';
import { acceptedBy } from '../suites/api/support.js';
import { expectRefused } from '../suites/partner-key/refresh.js';
import { is2xx } from '../suites/partner-key/support.js';

export const partnerOnboarding: TestCase = {
  id: 'scenario/partner-onboarding',
  title: 'Partner onboarding: create → 409 on repeat → mint → search → refresh → cross-tenant refresh refused → reset password',
  rules: ['PARTNER-CREATE-USER', 'PARTNER-CREATE-DUPLICATE', 'PARTNER-MINT', 'PARTNER-REFRESH', 'PARTNER-REFRESH-CROSS-TENANT', 'PARTNER-RESET-PASSWORD'],
  needs: ['partner'],
  async run(t) {
    const draft = fc.sample(userDraft({ optional: 'some' }), { seed: t.fc.seed, numRuns: 1 })[0]!;
    const user = withEmail(draft, t.names.email('onboarding'));

    // 1. Create the user.
    const created = await t.partner.createUser({ ...user });
    t.expectStatus('PARTNER-CREATE-USER', '1. create the user', created, 201, { soft: true });
    if (!is2xx(created)) return;

    // 2. Creating it again is a conflict.
    const again = await t.partner.createUser({ ...user });
    t.expectStatus('PARTNER-CREATE-DUPLICATE', '2. create the same user again', again, 409, { soft: true });

    // 3. Mint its tokens.
    const minted = await t.partner.mint(user.email);
    t.check('PARTNER-MINT', '3. mint: an access token', is2xx(minted.res) && minted.access !== undefined, '2xx with an access token', `${minted.res.status}${minted.access ? '' : ', no access token'}`);
    t.soft('PARTNER-MINT', '3. mint: a refresh token', minted.refresh !== undefined, 'a refresh token', 'none found');

    // 4. Call the API with it.
    const search = await t.api.search(t.target.baseUrl, minted.access!.value);
    t.soft('PARTNER-MINT', '4. search with the minted token', acceptedBy(t, 'PARTNER-MINT', search, 'minted token'), '200 (or 403: the user may read nothing)', String(search.status));

    // 5. Refresh with the same key at the same host; the new access token works.
    let newest = minted.refresh?.value;
    if (newest !== undefined) {
      const refreshed = await t.partner.refresh(newest);
      t.check('PARTNER-REFRESH', '5. refresh: new tokens', is2xx(refreshed.res) && refreshed.access !== undefined, '2xx with an access token', `${refreshed.res.status}${refreshed.access ? '' : ', no access token'}`);
      const again = await t.api.search(t.target.baseUrl, refreshed.access!.value);
      t.soft('PARTNER-REFRESH', '5. search with the refreshed token', acceptedBy(t, 'PARTNER-REFRESH', again, 'refreshed token'), '200 (or 403: the user may read nothing)', String(again.status));
      newest = refreshed.refresh?.value ?? newest;
    }

    // 6. Tenant A's refresh token at tenant B, with B's valid key: refused (needs B's key).
    if (newest !== undefined && t.target.otherPartner && t.target.otherBaseUrl) {
      expectRefused(t, (await t.otherPartner.refresh(newest)).res, "6. A's refresh token at B's host with B's key");
    } else if (newest !== undefined) {
      t.observe('PARTNER-REFRESH-CROSS-TENANT', "step 6 not run: tenant B's key is not configured (TACK_OTHER_BASE_URL, TACK_OTHER_PARTNER_*)");
    }

    // 7. Send a password reset.
    const reset = await t.partner.resetPassword(user.email);
    if (reset.url) t.redactor.register('secret', reset.url.value);
    const ok = is2xx(reset.res) && reset.url !== undefined && isAbsoluteHttpUrl(reset.url.value);
    t.soft('PARTNER-RESET-PASSWORD', '7. reset password: an absolute action URL', ok, '2xx with an absolute http(s) URL', `${reset.res.status}${reset.url ? '' : ', no absolute URL found'}`);
  },
};
