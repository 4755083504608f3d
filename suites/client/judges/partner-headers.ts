/** CLIENT-PARTNER-HEADERS (spec §5): both credential headers, under the configured names, on every admin call. */
import { headerValue } from '../../../src/checks/request.js';
import { requestsOf } from '../evidence.js';
import type { ClientJudge } from '../judge.js';
import { isAdminCall } from '../../../src/checks/observed-request.js';

export const partnerHeaders: ClientJudge = {
  rule: 'CLIENT-PARTNER-HEADERS',
  profiles: ['partner-key'],
  notExercised: 'the client made no admin call (mint, refresh)',
  judge(scenario, v) {
    const partner = scenario.settings.partner;
    if (partner === undefined) return;
    const [idHeader, secretHeader] = partner.headers;
    for (const call of requestsOf(scenario).filter(isAdminCall)) {
      v.check(`the admin call carries the client id in ${idHeader}`, headerValue(call, idHeader, partner.clientId, 'the partner client id'), [call]);
      v.check(`the admin call carries the secret in ${secretHeader}`, headerValue(call, secretHeader, partner.secret, 'the partner secret'), [call]);
    }
  },
};
