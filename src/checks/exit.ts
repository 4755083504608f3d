/**
 * Checks on how a run of a client under test ended: its exit code says whether its work succeeded
 * (the client-under-test contract: 0 when it did, non-zero when it gave up).
 */
import { finding, type Finding } from './finding.js';

/** The exit code agrees with `succeeded`, which `because` explains. */
export function exitAgrees(exitCode: number, succeeded: boolean, because: string): Finding {
  const ok = succeeded ? exitCode === 0 : exitCode !== 0;
  return finding(ok, `${succeeded ? 'exit 0' : 'a non-zero exit'} (${because})`, `exit ${exitCode}`);
}

/** The run did its work (its business search succeeded and it ended by itself); `how` says what it did instead. */
export function workDone(done: boolean, how: string): Finding {
  return finding(done, 'a business search answered 2xx, and the run ended by itself', done ? 'it did' : how);
}
