/** CLIENT-EXCHANGE-FORM (spec §2, §4.2, §5.2): every exchange attempt, as the spec writes it. */
import { formField, formFieldPresent, mediaType, sentTo } from '../../../src/checks/request.js';
import { exchangePath, isExchange, requestsOf } from '../evidence.js';
import type { ClientJudge } from '../judge.js';

export const exchangeForm: ClientJudge = {
  rule: 'CLIENT-EXCHANGE-FORM',
  profiles: ['personal-token'],
  notExercised: 'the client made no exchange at the sign-in server',
  judge(scenario, v) {
    const { settings } = scenario;
    for (const request of requestsOf(scenario).filter((r) => isExchange(r, settings))) {
      const on = [request];
      v.check('the exchange is a POST to {identity}/protocol/openid-connect/token', sentTo(request, 'POST', exchangePath(settings)), on);
      v.check('the exchange is form-encoded', mediaType(request, 'application/x-www-form-urlencoded'), on);
      v.check('the exchange says grant_type=refresh_token', formField(request, 'grant_type', 'refresh_token'), on);
      v.check(`the exchange says client_id=${settings.clientId}`, formField(request, 'client_id', settings.clientId), on);
      v.check('the exchange carries the API token as refresh_token', formFieldPresent(request, 'refresh_token'), on);
    }
  },
};
