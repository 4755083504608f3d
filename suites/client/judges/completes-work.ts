/**
 * CLIENT-COMPLETES-WORK (the client-under-test contract): in every run where the service answers
 * as it should (the scenario's `healthy` runs), the client completes its business search and ends
 * by itself. A run that does not fails this rule, with its end and its output shown, unless another
 * MUST rule already failed on that run (it names the cause: a stale token, a missing retry); a
 * SHOULD that warned explains nothing (a client that never searches is not certified by a warning). Runs tack
 * stopped (--run-timeout, --max-requests) and runs that sent nothing are the scenario's error or
 * unverified part, not judged here.
 */
import { workDone } from '../../../src/checks/exit.js';
import { isBusinessSearch } from '../../../src/checks/observed-request.js';
import { endOf, type ObservedRun, searchSucceeded, sentBy } from '../evidence.js';
import type { ClientJudge, Verdicts } from '../judge.js';
import { SCENARIOS } from '../scenarios.js';

export const completesWork: ClientJudge = {
  rule: 'CLIENT-COMPLETES-WORK',
  profiles: ['personal-token', 'partner-key'],
  notExercised: (scenarios) => {
    const ended = scenarios.flatMap((s) =>
      s.runs.filter((r) => healthyIn(s.id).includes(r.index) && r.end === 'exited' && r.requests.length > 0).map((r) => `${s.id} run ${r.index}`),
    );
    if (ended.length === 0) return 'no run in which the service answered as it should ended by itself after sending a request';
    // Every such run was excused: another MUST rule failed on it and names the cause.
    return `each run in which the service answered as it should (${ended.join(', ')}) failed another MUST rule, which names why its work did not complete`;
  },
  judge(scenario, v) {
    const healthy = healthyIn(scenario.id);
    for (const run of scenario.runs.filter((r) => healthy.includes(r.index))) {
      if (run.end !== 'exited' || run.requests.length === 0) continue;
      const done = searchSucceeded(run);
      if (!done && v.otherFailures(run.index).length > 0) continue;
      const searches = run.requests.filter(isBusinessSearch);
      v.check(`run ${run.index} completes its business search`, workDone(done, what(run, v)), searches.length > 0 ? searches : run.requests, run.index);
    }
  },
};

function healthyIn(id: string): readonly number[] {
  // Stryker disable next-line ArrayDeclaration: a placeholder in the list of no run is no run index either.
  return SCENARIOS.find((s) => s.id === id)?.healthy ?? [];
}

/** What a run did instead of its work: how it ended, what it sent, and the end of its output. */
function what(run: ObservedRun, v: Verdicts): string {
  const searched = run.requests.some(isBusinessSearch) ? 'no business search answered 2xx' : 'no business search';
  const output = [run.stderr, run.stdout].map((text) => v.shown(text)).find((text) => text !== '');
  return `${endOf(run)} after ${sentBy(run)}, ${searched}${output === undefined ? ', and no output' : `; its output ends: «${output}»`}`;
}
