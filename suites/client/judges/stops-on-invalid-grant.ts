/** CLIENT-STOPS-ON-INVALID-GRANT (spec §4.2, §7): after invalid_grant, no exchange again in that run. */
import { atMost } from '../../../src/checks/sequence.js';
import { isExchange } from '../evidence.js';
import type { ClientJudge } from '../judge.js';
import { isInvalidGrant } from '../../../src/checks/observed-request.js';

export const stopsOnInvalidGrant: ClientJudge = {
  rule: 'CLIENT-STOPS-ON-INVALID-GRANT',
  profiles: ['personal-token'],
  notExercised: 'no exchange of the client was answered invalid_grant',
  judge(scenario, v) {
    const { settings } = scenario;
    for (const run of scenario.runs) {
      const dead = run.requests.find((r) => isExchange(r, settings) && isInvalidGrant(r));
      if (dead === undefined) continue;
      const again = run.requests.filter((r) => r.seq > dead.seq && isExchange(r, settings));
      v.check(`run ${run.index}: no exchange after invalid_grant`, atMost(again, 0, 'later exchange'), [dead, ...again]);
    }
  },
};
