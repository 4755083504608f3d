/**
 * CLIENT-REUSE-ACCESS-TOKEN (spec §5.4, §8): after an API call that succeeded, the next call of the
 * run uses the same access token, unless it was near expiry (less than 60 s of its 300 s left). A
 * renewal after a refused call is the business of the 401 and 403 rules, not this one.
 */
import { atMost } from '../../../src/checks/sequence.js';
import { isRenewal, requestsOf } from '../evidence.js';
import type { ClientJudge } from '../judge.js';
import { accessTokenIssued, answered2xx, bearerOf, isApiCall } from '../../../src/checks/observed-request.js';

/** A renewal this late in a 300-second access token's life is "near expiry" (spec §5.4). */
const NEAR_EXPIRY_MS = 240_000;

export const reuse: ClientJudge = {
  rule: 'CLIENT-REUSE-ACCESS-TOKEN',
  profiles: ['personal-token', 'partner-key'],
  notExercised: 'no run made two API calls in a row that succeeded, so reuse could not be seen (the several-calls scenario offers results to page through)',
  judge(scenario, v) {
    const { settings } = scenario;
    const issuedAt = new Map<string, number>();
    for (const r of requestsOf(scenario)) {
      const token = accessTokenIssued(r);
      // Issued: answered 2xx, so answered.
      if (token !== undefined) issuedAt.set(token, r.response!.at);
    }
    for (const run of scenario.runs) {
      const calls = run.requests.filter(isApiCall);
      for (let i = 1; i < calls.length; i++) {
        const [before, after] = [calls[i - 1]!, calls[i]!];
        if (!answered2xx(before)) continue;
        const used = bearerOf(before);
        // Stryker disable next-line ConditionalExpression,EqualityOperator: no token was issued under undefined; the lookup answers undefined too.
        const born = used === undefined ? undefined : issuedAt.get(used);
        // Stryker disable next-line ConditionalExpression: without a birth the age is NaN, never near expiry.
        if (born !== undefined && after.at - born >= NEAR_EXPIRY_MS) continue;
        // Stryker disable next-line EqualityOperator: the two calls are API calls, never renewals: counting them in changes nothing.
        const renewals = run.requests.filter((r) => r.seq > before.seq && r.seq < after.seq && isRenewal(r, settings));
        v.check('no new access token between two API calls while the first one is valid', atMost(renewals, 0, 'renewal'), [before, ...renewals, after]);
      }
    }
  },
};
