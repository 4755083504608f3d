/**
 * CLIENT-EXIT-STATUS (the client-under-test contract): a run's exit code says whether its work
 * succeeded, i.e. whether its last API call answered 2xx. Runs tack stopped are not judged here.
 */
import { exitAgrees } from '../../../src/checks/exit.js';
import type { ClientJudge } from '../judge.js';
import { answered2xx, describeRequest, isApiCall } from '../../../src/checks/observed-request.js';

export const exitStatus: ClientJudge = {
  rule: 'CLIENT-EXIT-STATUS',
  profiles: ['personal-token', 'partner-key'],
  notExercised: 'no run of the client exited by itself',
  judge(scenario, v) {
    for (const run of scenario.runs) {
      if (run.end !== 'exited' || run.exitCode === null) continue;
      const last = run.requests.filter(isApiCall).at(-1);
      const succeeded = last !== undefined && answered2xx(last);
      const because = last === undefined ? 'it made no API call' : `its last API call ${describeRequest(last)}`;
      v.check(`run ${run.index} exits as its work ended`, exitAgrees(run.exitCode, succeeded, because), last ? [last] : []);
    }
  },
};
