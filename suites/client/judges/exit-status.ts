/**
 * CLIENT-EXIT-STATUS (the client-under-test contract): a run's exit code says whether its work
 * succeeded, the work being its business search, not whichever call came last. Non-zero when the
 * search never succeeded; 0 when it did and nothing failed after it; after a failure past a
 * successful search (an optional call answered 404, a later page refused), or in flight together
 * with a successful search (a client with parallel workers: one worker's invalid_grant while
 * another's search succeeded), either is accepted: judged by time, not arrival order. A
 * run that gave up before its work is no evidence (its exit 0 still fails); a run that sent
 * nothing is an error of its scenario, not judged here, nor are runs tack stopped. A run ended by
 * a signal tack did not send (SIGKILL, SIGABRT after its work) did not exit 0: it fails when its
 * work succeeded.
 */
import { exitAgrees } from '../../../src/checks/exit.js';
import { reachedWork } from '../evidence.js';
import type { ClientJudge } from '../judge.js';
import { answered2xx, inFlightTogether, isBusinessSearch, type ObservedRequest, settledBefore } from '../../../src/checks/observed-request.js';

export const exitStatus: ClientJudge = {
  rule: 'CLIENT-EXIT-STATUS',
  profiles: ['personal-token', 'partner-key'],
  notExercised: 'no run of the client reached its work and exited by itself',
  judge(scenario, v) {
    for (const run of scenario.runs) {
      // A run ended by a signal tack did not send (tack's own stops are `timed-out` or `cut-off`) did not exit 0.
      if (run.end !== 'exited' || (run.exitCode === null && run.signal === null) || run.requests.length === 0) continue;
      const searches = run.requests.filter(isBusinessSearch);
      const successes = searches.filter(answered2xx);
      const done = successes.at(-1);
      const succeeded = done !== undefined;
      if (!succeeded && run.exitCode !== 0 && !reachedWork(run, scenario.settings)) continue;
      // By time, not arrival order: a failure not over before the last successful search began, or in
      // flight together with any successful search (another worker's), leaves either exit code right.
      // A request never answered has no end to compare: it counts only when it arrived after the search.
      const failed = run.requests.filter((r) => r.response === undefined || r.response.status >= 400);
      const notBehind = (f: ObservedRequest, last: ObservedRequest) =>
        // Stryker disable next-line EqualityOperator: a request never answered is never the last successful search.
        f.response === undefined ? f.seq > last.seq : !settledBefore(f, last) || successes.some((s) => inFlightTogether(f, s));
      const pending = done === undefined ? [] : failed.filter((f) => notBehind(f, done));
      if (pending.length > 0) continue;
      const because = succeeded
        ? 'its business search succeeded and nothing failed after it'
        : searches.length === 0
          ? 'it made no business search'
          : 'its business search never succeeded';
      const on = done !== undefined ? [done] : searches.length > 0 ? searches : run.requests.slice(-1);
      v.check(`run ${run.index} exits as its work ended`, exitAgrees(run.exitCode, succeeded, because, run.signal), on, run.index);
    }
  },
};
