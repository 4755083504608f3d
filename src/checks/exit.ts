/**
 * Checks on how a run of a client under test ended: its exit code says whether its work succeeded
 * (the client-under-test contract: 0 when it did, non-zero when it gave up).
 */
import { finding, type Finding } from './finding.js';

/**
 * The exit code agrees with `succeeded`, which `because` explains. A run ended by a signal
 * (`exitCode` null, `signal` set) did not exit 0: its status is a failure, whatever it did before.
 */
export function exitAgrees(exitCode: number | null, succeeded: boolean, because: string, signal: string | null = null): Finding {
  const ok = succeeded ? exitCode === 0 : exitCode !== 0;
  const actual = exitCode === null ? `ended by ${signal ?? 'a signal'}` : `exit ${exitCode}`;
  return finding(ok, `${succeeded ? 'exit 0' : 'a non-zero exit'} (${because})`, actual);
}

/** The run did its work (its business search succeeded and it ended by itself); `how` says what it did instead. */
export function workDone(done: boolean, how: string): Finding {
  return finding(done, 'a business search answered 2xx, and the run ended by itself', done ? 'it did' : how);
}
