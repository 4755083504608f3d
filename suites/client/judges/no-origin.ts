/**
 * CLIENT-NO-ORIGIN (spec §4.2): the sign-in server serves scripts, servers and desktop tools, not
 * web pages of other sites; a client that sends an Origin header presents itself as one (a browser
 * sends it, a script need not). A run that gave up before its work is no evidence (an Origin still counts).
 */
import { noHeader } from '../../../src/checks/request.js';
import { reachedWork } from '../evidence.js';
import type { ClientJudge } from '../judge.js';

export const noOrigin: ClientJudge = {
  rule: 'CLIENT-NO-ORIGIN',
  profiles: ['personal-token'],
  notExercised: 'the client made no call to the sign-in server',
  judge(scenario, v) {
    for (const run of scenario.runs) {
      const reached = reachedWork(run, scenario.settings);
      for (const request of run.requests.filter((r) => r.role === 'identity')) {
        const found = noHeader(request, 'Origin');
        if (reached || !found.ok) v.check('the call to the sign-in server carries no Origin header', found, [request]);
      }
    }
  },
};
