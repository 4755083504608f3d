/**
 * Minting (spec §4.1 "get user token", §5 "Identity"): tokens for users of the key's own tenant
 * only, usable as Bearer tokens at that tenant's host.
 */
import type { TestCase } from '../../src/harness/types.js';
import { acceptedBy } from '../api/support.js';
import { checkProblem, createMember, is2xx, tokenInBody } from './support.js';

export const mintForMember: TestCase = {
  id: 'partner-key/mint',
  title: 'Minting for a member returns an access and a refresh token that work at its host',
  rules: ['PARTNER-MINT'],
  needs: ['partner'],
  async run(t) {
    const email = await createMember(t, 'mint');
    const minted = await t.partner.mint(email);
    t.check('PARTNER-MINT', 'mint for a member answers 2xx', is2xx(minted.res), '2xx', String(minted.res.status));
    t.soft('PARTNER-MINT', 'the answer carries an access token', minted.access !== undefined, 'an access token (common spellings or TACK_PARTNER_ACCESS_TOKEN_FIELD)', 'none found');
    t.soft('PARTNER-MINT', 'the answer carries a refresh token', minted.refresh !== undefined, 'a refresh token (common spellings or TACK_PARTNER_REFRESH_TOKEN_FIELD)', 'none found');
    if (minted.access) t.observe('PARTNER-MINT', `access token found in field ${minted.access.field}${minted.refresh ? `, refresh token in ${minted.refresh.field}` : ''}`);
    if (!minted.access) return;
    const search = await t.api.search(t.target.baseUrl, minted.access.value);
    t.check('PARTNER-MINT', "the access token is accepted as a Bearer token at the tenant's host", acceptedBy(t, 'PARTNER-MINT', search, 'minted token'), '200 (or 403: the new user may read nothing)', String(search.status));
  },
};

export const mintForNonMember: TestCase = {
  id: 'partner-key/mint-non-member',
  title: 'No token is minted for someone who is not a user of the tenant',
  rules: ['PARTNER-MINT-NON-MEMBER', 'PARTNER-PROBLEM-DETAILS'],
  needs: ['partner'],
  async run(t) {
    // The spec gives no status for this refusal: any non-2xx without a token in the body.
    const stranger = await t.partner.mint(t.names.email('stranger'));
    refused(t, 'an e-mail no tenant knows', stranger.res);

    // A user of tenant B only (guarded: B's key is optional here).
    if (t.target.otherPartner && t.target.otherBaseUrl) {
      const email = await createMember(t, 'b-only', t.otherPartner);
      const res = (await t.partner.mint(email)).res;
      refused(t, 'a user of tenant B only, at tenant A', res);
    } else {
      t.observe('PARTNER-MINT-NON-MEMBER', "tenant B's key is not configured: a user of another tenant was not tried");
    }

    function refused(ctx: typeof t, what: string, res: import('../../src/harness/http.js').HttpResponse): void {
      const field = tokenInBody(ctx, res);
      ctx.soft('PARTNER-MINT-NON-MEMBER', `mint for ${what}: refused`, !is2xx(res), 'a non-2xx status', String(res.status));
      ctx.soft('PARTNER-MINT-NON-MEMBER', `mint for ${what}: no token in the body`, field === undefined, 'no token', `a token in ${field}`);
      if (!is2xx(res)) ctx.observe('PARTNER-MINT-NON-MEMBER', `mint for ${what} answered ${res.status} (the spec gives no status)`);
      checkProblem(ctx, res, `mint for ${what}`);
    }
  },
};
