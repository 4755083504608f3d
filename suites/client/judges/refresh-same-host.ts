/**
 * CLIENT-REFRESH-SAME-HOST (spec §4.1 rule 2): wherever a partner refresh token the server issued is
 * sent (URL, header or body, in any written form), it is a refresh call at the tenant host that minted it. A prohibition:
 * it holds when the client had the chance (in one run, it held a partner refresh token and needed a
 * new access token) and sent the token nowhere else; minting again instead of refreshing is allowed.
 */
import { findSecret } from '../../../src/checks/leaks.js';
import { atMost } from '../../../src/checks/sequence.js';
import { atRole, sentTo } from '../../../src/checks/request.js';
import { requestsOf } from '../evidence.js';
import type { ClientJudge } from '../judge.js';
import { bodyTexts, isMint, isPartnerRefresh, type ObservedRequest, refreshTokenIssued } from '../../../src/checks/observed-request.js';
import { PATHS } from '../../../src/spec.js';

export const refreshSameHost: ClientJudge = {
  rule: 'CLIENT-REFRESH-SAME-HOST',
  profiles: ['partner-key'],
  notExercised: (scenarios) =>
    scenarios.some((s) => requestsOf(s).some((r) => issuedBy(r) !== undefined))
      ? 'the client held a partner refresh token but never needed another access token while it did'
      : 'the client never held a partner refresh token (no mint was answered with one)',
  judge(scenario, v) {
    const issued = new Set<string>();
    for (const run of scenario.runs) {
      const held = new Set<string>();
      const misplaced: ObservedRequest[] = [];
      for (const request of run.requests) {
        // Stryker disable next-line StringLiteral: the separator puts no token in the text. A JSON body is searched decoded too.
        const text = [request.target, ...Object.values(request.headers), ...bodyTexts(request)].join('\n');
        // Stryker disable next-line StringLiteral: the kind names the token in no verdict.
        const tokens = [...issued].map((value) => ({ value, kind: 'a partner refresh token' }));
        // In any written form of the redactor's definition: URL-encoded in a form, base64 in Basic credentials...
        if (findSecret(text, tokens) !== undefined) {
          const host = atRole(request, 'tenant', 'the tenant host that minted it');
          const endpoint = sentTo(request, 'POST', PATHS.partnerRefresh);
          if (!host.ok || !endpoint.ok) misplaced.push(request);
          v.check('the partner refresh token goes to the tenant host that minted it', host, [request]);
          v.check('the partner refresh token goes to the refresh endpoint', endpoint, [request]);
        } else if (held.size > 0 && isMint(request)) {
          // Stryker disable next-line StringLiteral: a check's title decides nothing.
          const title = 'holding a partner refresh token, the client minted again instead (allowed) and sent the token nowhere else';
          v.check(title, atMost(misplaced, 0, 'request with the partner refresh token elsewhere'), [...misplaced, request]);
        }
        const token = issuedBy(request);
        if (token !== undefined) {
          held.add(token);
          issued.add(token);
        }
      }
    }
  },
};

function issuedBy(request: ObservedRequest): string | undefined {
  return request.role === 'tenant' && (isMint(request) || isPartnerRefresh(request)) ? refreshTokenIssued(request) : undefined;
}
