/**
 * CLIENT-REFRESH-SAME-HOST (spec §4.1 rule 2): wherever a partner refresh token the server issued is
 * sent (URL, header or body), it is a refresh call at the tenant host that minted it.
 */
import { atRole, sentTo } from '../../../src/checks/request.js';
import { requestsOf } from '../evidence.js';
import type { ClientJudge } from '../judge.js';
import { isMint, isPartnerRefresh, refreshTokenIssued } from '../../../src/checks/observed-request.js';
import { PATHS } from '../../../src/spec.js';

export const refreshSameHost: ClientJudge = {
  rule: 'CLIENT-REFRESH-SAME-HOST',
  profiles: ['partner-key'],
  notExercised: 'the client never redeemed a partner refresh token (after a 401 it minted again, which the spec allows)',
  judge(scenario, v) {
    const requests = requestsOf(scenario);
    const issued = new Set(requests.filter((r) => r.role === 'tenant' && (isMint(r) || isPartnerRefresh(r))).flatMap((r) => refreshTokenIssued(r) ?? []));
    for (const request of requests) {
      const text = [request.target, ...Object.values(request.headers), request.body ?? ''].join('\n');
      if (![...issued].some((token) => text.includes(token))) continue;
      v.check('the partner refresh token goes to the tenant host that minted it', atRole(request, 'tenant', 'the tenant host that minted it'), [request]);
      v.check('the partner refresh token goes to the refresh endpoint', sentTo(request, 'POST', PATHS.partnerRefresh), [request]);
    }
  },
};
