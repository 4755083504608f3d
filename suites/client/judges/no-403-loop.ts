/** CLIENT-NO-403-LOOP (spec §7): a 403 is for a person to fix; the client neither renews nor repeats. */
import { atMost } from '../../../src/checks/sequence.js';
import { isRenewal } from '../evidence.js';
import type { ClientJudge } from '../judge.js';
import { isApiCall, statusOf } from '../../../src/checks/observed-request.js';

export const no403Loop: ClientJudge = {
  rule: 'CLIENT-NO-403-LOOP',
  profiles: ['personal-token', 'partner-key'],
  scenarios: ['forbidden'],
  notExercised: 'the client made no API call, so the scripted 403 was never served',
  judge(scenario, v) {
    for (const run of scenario.runs) {
      const refused = run.requests.find((r) => isApiCall(r) && statusOf(r) === 403);
      if (refused === undefined) continue;
      const more = run.requests.filter((r) => r.seq > refused.seq && (isApiCall(r) || isRenewal(r, scenario.settings)));
      v.check('after a 403, no new access token and no repeated call', atMost(more, 0, 'later request'), [refused, ...more]);
    }
  },
};
