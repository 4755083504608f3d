/**
 * Refreshing a partner token (spec §4.1 rule 2): same two headers, same tenant host; the refresh
 * token alone is not enough, and it is never redeemed at another tenant. Each test mints its own
 * pair, so a server that wrongly consumes a token in one check cannot spoil another rule's check.
 */
import type { TestContext } from '../../src/harness/context.js';
import type { TestCase } from '../../src/harness/types.js';
import { acceptedBy } from '../api/support.js';
import { checkProblem, createMember, is2xx, mintOrStop, tokenInBody } from './support.js';

/** A fresh member's minted tokens, refresh token required (precondition). */
async function mintedPair(t: TestContext, label: string): Promise<{ access: string; refresh: string }> {
  const minted = await mintOrStop(t, await createMember(t, label));
  if (!minted.refresh) throw new Error(`the mint answer carried no refresh token (precondition; see PARTNER-MINT): ${minted.res.status}`);
  return { access: minted.access.value, refresh: minted.refresh.value };
}

export const refreshSameHost: TestCase = {
  id: 'partner-key/refresh',
  title: 'Refreshing with the same headers at the same host returns tokens that work',
  rules: ['PARTNER-REFRESH'],
  needs: ['partner'],
  async run(t) {
    const pair = await mintedPair(t, 'refresh');
    const refreshed = await t.partner.refresh(pair.refresh);
    t.check('PARTNER-REFRESH', 'refresh with the same headers and host answers 2xx', is2xx(refreshed.res), '2xx', String(refreshed.res.status));
    t.check('PARTNER-REFRESH', 'the answer carries an access token', refreshed.access !== undefined, 'an access token', 'none found');
    t.observe(
      'PARTNER-REFRESH',
      `the refresh answer ${refreshed.refresh ? `carries a refresh token (${refreshed.refresh.value === pair.refresh ? 'the same one' : 'a new one'})` : 'carries no refresh token'}; the access token is ${refreshed.access!.value === pair.access ? 'the same as before' : 'new'}`,
    );
    const search = await t.api.search(t.target.baseUrl, refreshed.access!.value);
    t.check('PARTNER-REFRESH', "the refreshed access token is accepted at the tenant's host", acceptedBy(t, 'PARTNER-REFRESH', search, 'refreshed token'), '200 (or 403: the user may read nothing)', String(search.status));
  },
};

export const refreshNeedsKey: TestCase = {
  id: 'partner-key/refresh-needs-key',
  title: 'A refresh token alone, without the credential headers, is refused with 401',
  rules: ['PARTNER-REFRESH-NEEDS-KEY', 'PARTNER-PROBLEM-DETAILS'],
  needs: ['partner'],
  async run(t) {
    const pair = await mintedPair(t, 'refresh-key');
    const [idName] = t.target.partnerHeaders;
    const variants: [string, Record<string, string>][] = [
      ['no credential header', {}],
      [`only ${idName}`, { [idName]: t.partner.key!.clientId }],
    ];
    for (const [what, credentials] of variants) {
      const res = (await t.partner.refresh(pair.refresh, { credentials })).res;
      t.expectStatus('PARTNER-REFRESH-NEEDS-KEY', `refresh with ${what}`, res, 401, { soft: true });
      const field = tokenInBody(t, res);
      t.soft('PARTNER-REFRESH-NEEDS-KEY', `refresh with ${what}: no token in the body`, field === undefined, 'no token', `a token in ${field}`);
      checkProblem(t, res, `refresh with ${what}`);
    }
  },
};

export const refreshCrossTenant: TestCase = {
  id: 'partner-key/refresh-cross-tenant',
  title: "Tenant A's refresh token is not redeemed at tenant B, even with B's valid key",
  rules: ['PARTNER-REFRESH-CROSS-TENANT', 'PARTNER-PROBLEM-DETAILS'],
  needs: ['partner', 'other-partner'],
  async run(t) {
    const pair = await mintedPair(t, 'refresh-cross');
    const res = (await t.otherPartner.refresh(pair.refresh)).res;
    expectRefused(t, res, "A's refresh token at B's host with B's key");
  },
};

/** "Cannot be redeemed": the spec gives no status, so any non-2xx without a token. */
export function expectRefused(t: TestContext, res: import('../../src/harness/http.js').HttpResponse, what: string): void {
  const field = tokenInBody(t, res);
  t.soft('PARTNER-REFRESH-CROSS-TENANT', `${what}: refused`, !is2xx(res), 'a non-2xx status', String(res.status));
  t.soft('PARTNER-REFRESH-CROSS-TENANT', `${what}: no token in the body`, field === undefined, 'no token', `a token in ${field}`);
  if (!is2xx(res)) t.observe('PARTNER-REFRESH-CROSS-TENANT', `${what} answered ${res.status} (the spec gives no status)`);
  checkProblem(t, res, what);
}
