/**
 * CLIENT-STORES-ROTATED-TOKEN (spec §2, §5.4): each exchange sends the newest API token: the token
 * file's at first, then the refresh_token of the last successful exchange, across runs too (the
 * server refuses a rotated-out token, as Keycloak does). It holds only on exchanges that followed a
 * rotation (the chance to have lost the new token); a first exchange with the token file's token
 * shows reading, not storing, and counts only when it sent something else.
 */
import { sameValue } from '../../../src/checks/sequence.js';
import { isExchange, requestsOf } from '../evidence.js';
import type { ClientJudge } from '../judge.js';
import { formOf, type ObservedRequest, refreshTokenIssued } from '../../../src/checks/observed-request.js';

export const storesRotated: ClientJudge = {
  rule: 'CLIENT-STORES-ROTATED-TOKEN',
  profiles: ['personal-token'],
  notExercised: 'no exchange of the client followed one that rotated its API token',
  judge(scenario, v) {
    const { settings } = scenario;
    let newest = settings.apiToken;
    let source = 'the API token of the token file';
    let issuedBy: ObservedRequest | undefined;
    for (const request of requestsOf(scenario).filter((r) => isExchange(r, settings))) {
      const sent = formOf(request)?.get('refresh_token') ?? undefined;
      if (sent !== undefined && newest !== undefined) {
        const on = issuedBy ? [issuedBy, request] : [request];
        const found = sameValue(sent, newest, source, 'an older or unknown token');
        if (issuedBy !== undefined || !found.ok) v.check(`exchange in run ${request.run} sends the newest API token`, found, on);
      }
      const next = refreshTokenIssued(request);
      if (next !== undefined) {
        newest = next;
        source = `the refresh_token exchange #${request.seq} returned`;
        issuedBy = request;
      }
    }
  },
};
