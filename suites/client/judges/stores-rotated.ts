/**
 * CLIENT-STORES-ROTATED-TOKEN (spec §2, §5.4): each exchange sends the newest API token: the token
 * file's at first, then the refresh_token of the last successful exchange, across runs too (the
 * server refuses a rotated-out token, as Keycloak does).
 */
import { sameValue } from '../../../src/checks/sequence.js';
import { isExchange, requestsOf } from '../evidence.js';
import type { ClientJudge } from '../judge.js';
import { formOf, type ObservedRequest, refreshTokenIssued } from '../../../src/checks/observed-request.js';

export const storesRotated: ClientJudge = {
  rule: 'CLIENT-STORES-ROTATED-TOKEN',
  profiles: ['personal-token'],
  notExercised: 'the client made no exchange at the sign-in server',
  judge(scenario, v) {
    const { settings } = scenario;
    let newest = settings.apiToken;
    let source = 'the API token of the token file';
    let issuedBy: ObservedRequest | undefined;
    for (const request of requestsOf(scenario).filter((r) => isExchange(r, settings))) {
      const sent = formOf(request)?.get('refresh_token') ?? undefined;
      if (sent !== undefined && newest !== undefined) {
        const on = issuedBy ? [issuedBy, request] : [request];
        v.check(`exchange in run ${request.run} sends the newest API token`, sameValue(sent, newest, source, 'an older or unknown token'), on);
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
