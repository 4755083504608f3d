/**
 * CLIENT-RETRY-ONCE-ON-401 (spec §5.4, §7): after the API's 401, exactly one new access token
 * (exchange, partner refresh or mint; failed attempts on the way do not count), then the same call
 * (method and path) once more carrying it. When that call gets a 401 too (api-401-always), nothing
 * more is tried. When the renewal is refused with invalid_grant, the client rightly stops (§7): the
 * retry could not follow, so that 401 leaves the rule unverified, never failed (the token it sent
 * is the business of CLIENT-STORES-ROTATED-TOKEN and CLIENT-KEEPS-API-TOKEN).
 */
import { repeatedWith } from '../../../src/checks/retry.js';
import { atMost, exactly } from '../../../src/checks/sequence.js';
import { isRenewal, requestsOf } from '../evidence.js';
import type { ClientJudge } from '../judge.js';
import { accessTokenIssued, describeRequest, isApiCall, isInvalidGrant, statusOf } from '../../../src/checks/observed-request.js';

export const retryOnce: ClientJudge = {
  rule: 'CLIENT-RETRY-ONCE-ON-401',
  profiles: ['personal-token', 'partner-key'],
  scenarios: ['api-401-once', 'api-401-always', 'two-runs', 'parallel-pages'],
  notExercised: 'no API call of the client met the scripted 401',
  judge(scenario, v) {
    const { settings } = scenario;
    // Stryker disable next-line ArrayDeclaration: a placeholder token in place of none issued is never in a client's path.
    const issued = new Set(requestsOf(scenario).flatMap((r) => accessTokenIssued(r) ?? []));
    for (const run of scenario.runs) {
      const refused = run.requests.find((r) => isApiCall(r) && statusOf(r) === 401);
      if (refused === undefined) continue;
      const after = run.requests.filter((r) => r.seq > refused.seq);
      const retry = after.find(isApiCall);
      // Stryker disable next-line EqualityOperator: the retry is an API call, never a renewal.
      const renewals = after.filter((r) => isRenewal(r, settings) && (retry === undefined || r.seq < retry.seq));
      const renewed = renewals.filter((r) => accessTokenIssued(r) !== undefined);
      const dead = renewals.find(isInvalidGrant);
      if (renewed.length === 0 && dead !== undefined) {
        const reason = `its renewal was refused with invalid_grant (${describeRequest(dead)}), so it could not retry, and rightly stopped`;
        v.unverified(`run ${run.index}: after the 401 (${describeRequest(refused)})`, reason);
        continue;
      }
      const steps = [refused, ...renewals, ...(retry ? [retry] : [])];
      v.check('after the 401, one new access token before the call is repeated', exactly(renewed, 1, 'new access token'), steps);
      const fresh = accessTokenIssued(renewed.at(-1) ?? refused);
      v.check('the refused call is repeated once, with the new access token', repeatedWith(refused, retry, fresh, 'the new access token', issued), steps);
      if (retry === undefined || statusOf(retry) !== 401) continue;
      const more = run.requests.filter((r) => r.seq > retry.seq && (isApiCall(r) || isRenewal(r, settings)));
      v.check('after the retry is refused with 401 too, nothing more is tried', atMost(more, 0, 'later request'), [retry, ...more]);
    }
  },
};
