/**
 * Business search needs a valid access token (spec §4.3, §7): without one, with one that was never
 * issued, or under another scheme than Bearer, it is refused with 401, and (SHOULD, RFC 6750 §3)
 * the 401 carries a Bearer challenge.
 */
import fc from 'fast-check';
import type { TestContext } from '../../src/runner/test-context.js';
import type { HttpResponse } from '../../src/harness/http.js';
import type { TestCase } from '../../src/runner/test-case.js';
import { bearerChallenge } from '../../src/checks/challenge.js';
import { status } from '../../src/checks/response.js';

const base64url = (s: string) => Buffer.from(s).toString('base64url');

/** Credentials no target ever issued. */
function forgedAuthorizations(seed: number): [string, string][] {
  const random = fc.sample(
    fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'), minLength: 40, maxLength: 40 }),
    { seed, numRuns: 1 },
  )[0]!;
  // An unsigned JWT ("alg":"none") that would pass a verifier which trusts the header.
  const unsigned = `${base64url('{"alg":"none","typ":"JWT"}')}.${base64url(JSON.stringify({ sub: 'tack', exp: 4102444800 }))}.`;
  return [
    ['a random bearer token', `Bearer ${random}`],
    ['an unsigned JWT (alg none)', `Bearer ${unsigned}`],
    ['the Basic scheme', `Basic ${Buffer.from('tack:not-a-password').toString('base64')}`],
  ];
}

export const accessTokenRequired: TestCase = {
  id: 'api/access-token-required',
  title: 'Business search without a valid Bearer token is refused with 401 and a Bearer challenge',
  rules: ['ACCESS-TOKEN-REQUIRED', 'ACCESS-WWW-AUTHENTICATE'],
  needs: [],
  async run(t) {
    refused(t, 'no Authorization header', await t.api.search(t.target.baseUrl, undefined));
    for (const [what, authorization] of forgedAuthorizations(t.fc.seed)) {
      refused(t, what, await t.api.raw('GET', `${t.target.baseUrl}/api/businesses/search`, { accept: 'application/json', authorization }));
    }
  },
};

function refused(t: TestContext, what: string, res: HttpResponse): void {
  t.soft('ACCESS-TOKEN-REQUIRED', `search with ${what}`, status(res, 401));
  if (res.status === 401) t.soft('ACCESS-WWW-AUTHENTICATE', `search with ${what}: WWW-Authenticate`, bearerChallenge(res));
}
