/**
 * CLIENT-PARTNER-JSON (spec §2, §4.1): mint sends {"username"} for the user to act for; refresh
 * sends {"refreshToken"} with the newest partner refresh token; both as application/json.
 */
import { jsonField, mediaType } from '../../../src/checks/request.js';
import { requestsOf } from '../evidence.js';
import type { ClientJudge } from '../judge.js';
import { isMint, isPartnerRefresh, type ObservedRequest, refreshTokenIssued } from '../../../src/checks/observed-request.js';

export const partnerJson: ClientJudge = {
  rule: 'CLIENT-PARTNER-JSON',
  profiles: ['partner-key'],
  notExercised: 'the client made no mint or refresh call',
  judge(scenario, v) {
    // Stryker disable next-line StringLiteral: a partner scenario always sets PAYROLL_USER_EMAIL.
    const email = scenario.settings.userEmail ?? '';
    let newest: { token: string; by: ObservedRequest } | undefined;
    for (const request of requestsOf(scenario)) {
      if (isMint(request)) {
        v.check('the mint call is JSON', mediaType(request, 'application/json'), [request]);
        v.check('the mint call names the user of PAYROLL_USER_EMAIL', jsonField(request, 'username', email, 'the user to act for'), [request]);
      } else if (isPartnerRefresh(request)) {
        v.check('the refresh call is JSON', mediaType(request, 'application/json'), [request]);
        if (newest !== undefined) {
          const shown = `the newest partner refresh token (from #${newest.by.seq})`;
          v.check('the refresh call sends the newest partner refresh token', jsonField(request, 'refreshToken', newest.token, shown), [newest.by, request]);
        }
      }
      const issued = isMint(request) || isPartnerRefresh(request) ? refreshTokenIssued(request) : undefined;
      if (issued !== undefined) newest = { token: issued, by: request };
    }
  },
};
