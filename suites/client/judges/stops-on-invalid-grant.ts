/**
 * CLIENT-STOPS-ON-INVALID-GRANT (spec §4.2, §7): after invalid_grant, no exchange again in that run.
 * "After" is by time: an exchange that arrived before the refusal was answered (a parallel worker's,
 * sent with the same dead token at the same moment) was not sent in spite of it.
 */
import { atMost } from '../../../src/checks/sequence.js';
import { isExchange } from '../evidence.js';
import type { ClientJudge } from '../judge.js';
import { isInvalidGrant, settledBefore } from '../../../src/checks/observed-request.js';

export const stopsOnInvalidGrant: ClientJudge = {
  rule: 'CLIENT-STOPS-ON-INVALID-GRANT',
  profiles: ['personal-token'],
  notExercised: 'no exchange of the client was answered invalid_grant',
  judge(scenario, v) {
    const { settings } = scenario;
    for (const run of scenario.runs) {
      const dead = run.requests.find((r) => isExchange(r, settings) && isInvalidGrant(r));
      if (dead === undefined) continue;
      // By time: an exchange already in flight when the refusal came (another worker's) is not one sent after it.
      const again = run.requests.filter((r) => settledBefore(dead, r) && isExchange(r, settings));
      v.check(`run ${run.index}: no exchange after invalid_grant`, atMost(again, 0, 'later exchange'), [dead, ...again]);
    }
  },
};
