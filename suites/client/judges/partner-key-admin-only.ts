/**
 * CLIENT-PARTNER-KEY-ADMIN-ONLY (spec §5: the key is sent "on every admin API call", its secret kept
 * on the server): the two credential headers, and the secret under any header name, in a body or a URL, go with admin
 * calls only, never with business search or another API call, never to the sign-in server. A run that
 * gave up before its work is no evidence (a key it sent still counts).
 */
import { isAdminCall } from '../../../src/checks/observed-request.js';
import { withoutPartnerKey } from '../../../src/checks/request.js';
import { reachedWork } from '../evidence.js';
import type { ClientJudge } from '../judge.js';

export const partnerKeyAdminOnly: ClientJudge = {
  rule: 'CLIENT-PARTNER-KEY-ADMIN-ONLY',
  profiles: ['partner-key'],
  notExercised: 'the client made no call but admin calls',
  judge(scenario, v) {
    const partner = scenario.settings.partner;
    if (partner === undefined) return;
    for (const run of scenario.runs) {
      const reached = reachedWork(run, scenario.settings);
      for (const request of run.requests.filter((r) => !isAdminCall(r))) {
        const found = withoutPartnerKey(request, partner.headers, partner.secret);
        if (reached || !found.ok) v.check('a call that is not an admin call carries no partner key', found, [request]);
      }
    }
  },
};
