/**
 * Refreshing a partner token (spec §4.1 rule 2): same two headers, same tenant host; the refresh
 * token alone is not enough, and it is never redeemed at another tenant. Each test mints its own
 * pair, so a server that wrongly consumes a token in one check cannot spoil another rule's check.
 */
import { finding } from '../../src/checks/finding.js';
import type { TestCase } from '../../src/runner/test-case.js';
import { expectUserData } from '../../src/steps/listing.js';
import { searchPages } from '../../src/steps/paging.js';
import { status, success } from '../../src/checks/response.js';
import { refusedWithoutToken } from '../../src/checks/refusal.js';
import { createMember, mintedPair, readerMember, tokenInBody } from '../../src/steps/members.js';
import type { TestPart } from '../../src/runner/needs.js';
import { checkProblem } from '../../src/steps/problem-details.js';

const REFRESHED_WORKS: TestPart = {
  rule: 'PARTNER-REFRESH',
  title: "the refreshed access token works at the tenant's host: search lists what the user reads",
  needs: ['reader'],
};

export const refreshSameHost: TestCase = {
  id: 'partner-key/refresh',
  title: 'Refreshing with the same headers at the same host returns tokens that work',
  rules: ['PARTNER-REFRESH'],
  needs: ['partner'],
  parts: [REFRESHED_WORKS],
  async run(t) {
    const reader = await readerMember(t, 'refresh');
    const email = reader?.email ?? (await createMember(t, 'refresh'));
    const pair = await mintedPair(t, email);
    const refreshed = await t.partner.refresh(pair.refresh);
    t.check('PARTNER-REFRESH', 'refresh with the same headers and host answers 2xx', success(refreshed.res));
    t.check('PARTNER-REFRESH', 'the answer carries an access token', finding(refreshed.access !== undefined, 'an access token', 'none found'));
    const refreshToken = refreshed.refresh
      ? `carries a refresh token (${refreshed.refresh.value === pair.refresh ? 'the same one' : 'a new one'})`
      : 'carries no refresh token';
    const accessToken = refreshed.access!.value === pair.access ? 'the same as before' : 'new';
    t.observe('PARTNER-REFRESH', `the refresh answer ${refreshToken}; the access token is ${accessToken}`);
    if (!t.can(REFRESHED_WORKS)) return;
    expectUserData(t, 'PARTNER-REFRESH', REFRESHED_WORKS.title, await searchPages(t, t.target.baseUrl, refreshed.access!.value), reader!.reads);
  },
};

export const refreshNeedsKey: TestCase = {
  id: 'partner-key/refresh-needs-key',
  title: 'A refresh token alone, without the credential headers, is refused with 401',
  rules: ['PARTNER-REFRESH-NEEDS-KEY', 'PARTNER-PROBLEM-DETAILS'],
  needs: ['partner'],
  async run(t) {
    const pair = await mintedPair(t, await createMember(t, 'refresh-key'));
    const [idName] = t.target.partnerHeaders;
    const variants: [string, Record<string, string>][] = [
      ['no credential header', {}],
      [`only ${idName}`, { [idName]: t.partner.key!.clientId }],
    ];
    for (const [what, credentials] of variants) {
      const res = (await t.partner.refresh(pair.refresh, { credentials })).res;
      t.soft('PARTNER-REFRESH-NEEDS-KEY', `refresh with ${what}`, status(res, 401));
      const field = tokenInBody(t, res);
      t.soft('PARTNER-REFRESH-NEEDS-KEY', `refresh with ${what}: no token in the body`, finding(field === undefined, 'no token', `a token in ${field}`));
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
    const pair = await mintedPair(t, await createMember(t, 'refresh-cross'));
    const res = (await t.otherPartner.refresh(pair.refresh)).res;
    const what = "A's refresh token at B's host with B's key";
    // "Cannot be redeemed": the spec gives no status, so any 4xx without a token.
    t.soft('PARTNER-REFRESH-CROSS-TENANT', what, refusedWithoutToken(res, tokenInBody(t, res)));
    t.observe('PARTNER-REFRESH-CROSS-TENANT', `${what} answered ${res.status} (the spec gives no status)`);
    checkProblem(t, res, what);
  },
};
