/**
 * CLIENT-KEEPS-API-TOKEN (spec §3, §5.4 "do not generate a new API token each time"): the client
 * never revokes or otherwise destroys the API token it keeps. Seen three ways: a revocation that
 * names its live API token (one already refused or rotated away may be revoked as a clean-up);
 * the token it kept after a run refused (invalid_grant) when the next run sends it; the token file
 * left missing or empty after a run, and the next run with no token to exchange. It holds on each
 * run that exchanged and revoked nothing, and on each next run whose first exchange of the kept
 * token succeeded.
 */
import { isSecretValue } from '../../../src/checks/leaks.js';
import { formOf, isInvalidGrant, type ObservedRequest, parameterValues, refreshTokenIssued } from '../../../src/checks/observed-request.js';
import { stillAlive } from '../../../src/checks/renewal.js';
import { atMost } from '../../../src/checks/sequence.js';
import { stillHoldsToken } from '../../../src/checks/token-file.js';
import { isExchange, isRevocation, reachedWork, type ScenarioEvidence } from '../evidence.js';
import type { ClientJudge } from '../judge.js';
import { SCENARIOS } from '../scenarios.js';

export const keepsApiToken: ClientJudge = {
  rule: 'CLIENT-KEEPS-API-TOKEN',
  profiles: ['personal-token'],
  notExercised: 'no run of the client made an exchange and ended by itself',
  judge(scenario, v) {
    const { settings } = scenario;
    const deadFromStart = SCENARIOS.find((s) => s.id === scenario.id)?.setup.revokeApiToken === true;
    let kept = deadFromStart ? undefined : settings.apiToken;
    let keptBy: ObservedRequest | undefined;
    for (const [i, run] of scenario.runs.entries()) {
      const exchanges = run.requests.filter((r) => isExchange(r, settings));
      const previous = scenario.runs[i - 1];
      if (previous !== undefined && kept !== undefined) {
        const first = exchanges[0];
        // Stryker disable next-line StringLiteral: a check's title decides nothing.
        const title = `the API token kept after run ${previous.index} still exchanges in run ${run.index}`;
        if (first !== undefined && formOf(first)?.get('refresh_token') === kept) {
          v.check(title, stillAlive(first, 'the API token it kept'), keptBy === undefined ? [first] : [keptBy, first]);
        } else if (run.end === 'exited' && !reachedWork(run, settings)) {
          // No exchange (one is work). A file still holding a token is no evidence the client kept it (it never tried): only its loss counts.
          const left = previous.tokenFile?.after;
          const found = left === undefined ? undefined : stillHoldsToken(left === null ? null : left.content);
          if (found !== undefined && !found.ok) v.check(`${title} (run ${run.index} made no exchange)`, found, [], run.index);
        }
      }
      const revocations = destroying(run.requests, settings, kept);
      // Judged where the client had the chance: it revoked, or it exchanged and ended by itself.
      if (revocations.length > 0 || (exchanges.length > 0 && run.end === 'exited')) {
        const on = revocations.length > 0 ? revocations : exchanges;
        v.check(`run ${run.index} revokes none of its API tokens`, atMost(revocations, 0, 'revocation of its API token'), on, run.index);
      }
      for (const exchange of exchanges) {
        const next = refreshTokenIssued(exchange);
        if (next !== undefined) [kept, keptBy] = [next, exchange];
      }
    }
  },
};

/**
 * The revocations in `requests` that name the API token alive at that moment: the one kept before
 * the run, then each one an exchange returns. Revoking a token already dead (refused with
 * invalid_grant, or rotated away by the exchange that returned its successor) destroys nothing.
 */
function destroying(requests: readonly ObservedRequest[], settings: ScenarioEvidence['settings'], kept: string | undefined): ObservedRequest[] {
  let live = kept;
  const out: ObservedRequest[] = [];
  for (const r of requests) {
    if (isExchange(r, settings)) {
      const next = refreshTokenIssued(r);
      if (next !== undefined) live = next;
      else if (isInvalidGrant(r) && formOf(r)?.get('refresh_token') === live) live = undefined;
    } else if (live !== undefined && isRevocation(r, settings) && names(r, live)) out.push(r);
  }
  return out;
}

/**
 * The revocation names `token`: a parameter's value (its form's `token`, any form or query
 * parameter, a string of a JSON body), decoded, is the token in any written form of the redactor's
 * definition (URL-encoded, every byte %-escaped, base64...). A longer value that merely holds the
 * token (`<token>.old`) names another token.
 */
function names(revocation: ObservedRequest, token: string): boolean {
  return parameterValues(revocation).some((value) => isSecretValue(value, token));
}
