/**
 * CLIENT-STORES-ROTATED-TOKEN (spec §2, §5.4): each exchange sends the newest API token: the token
 * file's at first, then the refresh_token of the last successful exchange, across runs too (the
 * server refuses a rotated-out token, as Keycloak does). It holds only on exchanges that followed a
 * rotation (the chance to have lost the new token); a first exchange with the token file's token
 * shows reading, not storing, and counts only when it sent something else.
 *
 * Judged by time, not arrival order: the newest token is the one returned by the last
 * rotation answered before the exchange arrived, and an exchange in flight while another exchange
 * of the same token rotated it fails: a client whose workers each exchange the one stored token at
 * once cannot store the returned token over the previous one, and one of them meets invalid_grant.
 */
import { atMost, sameValue } from '../../../src/checks/sequence.js';
import { isExchange, requestsOf } from '../evidence.js';
import type { ClientJudge } from '../judge.js';
import { formOf, inFlightTogether, isInvalidGrant, type ObservedRequest, refreshTokenIssued, settledBefore } from '../../../src/checks/observed-request.js';

export const storesRotated: ClientJudge = {
  rule: 'CLIENT-STORES-ROTATED-TOKEN',
  profiles: ['personal-token'],
  notExercised: 'no exchange of the client followed one that rotated its API token',
  judge(scenario, v) {
    const { settings } = scenario;
    if (settings.apiToken === undefined) return;
    const exchanges = requestsOf(scenario).filter((r) => isExchange(r, settings));
    const rotations = exchanges.filter((r) => refreshTokenIssued(r) !== undefined);
    for (const request of exchanges) {
      const sent = sentToken(request);
      if (sent === undefined) continue;
      // The newest API token when it was sent: the one the last rotation over by then returned (answered
      // at the same millisecond: the one that arrived last; the sort is stable, rotations in arrival order).
      const known = rotations
        .filter((r) => settledBefore(r, request))
        .sort((a, b) => a.response!.at - b.response!.at)
        .at(-1);
      const newest = known === undefined ? settings.apiToken : refreshTokenIssued(known)!;
      const source = known === undefined ? 'the API token of the token file' : `the refresh_token exchange #${known.seq} returned`;
      const found = sameValue(sent, newest, source, 'an older or unknown token');
      if (known !== undefined || !found.ok) v.check(`exchange in run ${request.run} sends the newest API token`, found, known ? [known, request] : [request]);
      // Another exchange rotated the same token while this one was in flight (two workers, one token): the
      // returned token could not be stored over it first. An exchange refused with invalid_grant whose token
      // another exchange then rotated must have been overtaken by it, whatever the clock says.
      // (An exchange never answered shows nothing lost: the client may have given it up before sending the next.
      // An exchange is never in flight with itself, and one that rotated was not refused.)
      const racing = rotations.filter(
        (r) =>
          request.response !== undefined && sentToken(r) === sent && (inFlightTogether(r, request) || (isInvalidGrant(request) && settledBefore(request, r))),
      );
      if (racing.length > 0) {
        const found = atMost(racing, 0, 'other exchange of the same API token in flight that rotated it');
        v.check(`exchange in run ${request.run} is the only exchange of its API token in flight`, found, [...racing, request]);
      }
    }
  },
};

function sentToken(request: ObservedRequest): string | undefined {
  return formOf(request)?.get('refresh_token') ?? undefined;
}
