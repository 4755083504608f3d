/**
 * One test, start to end: its context, its time limit (the per-test limit, or what is left of the
 * run's deadline), and how it ended. A test that runs out of time is abandoned: it gets no client,
 * moves no clock and records nothing afterwards, so it cannot disturb the tests after it.
 */
import { isTackError, TackError, errorText } from '../harness/errors.js';
import { CheckFailed, type ContextParts, TestContext } from './test-context.js';
import type { RuleId } from '../rules/catalog.js';
import type { TestCase } from './test-case.js';
import type { TestPlan } from './selection.js';
import type { TestOutcome } from './results.js';

export interface TestRun {
  readonly outcome: TestOutcome;
  readonly context: TestContext;
  /** The run's deadline, not the test's own limit, cut the test off. */
  readonly hitDeadline: boolean;
  /** The runner gave up on the test (its time ran out, or the run was stopped): it may still be running. */
  readonly abandoned: boolean;
  /** The rule of the failed check that stopped the test (`failed`). */
  readonly stoppedAt?: RuleId | undefined;
}

export interface TestLimits {
  /** The test's own time limit. */
  readonly timeoutMs: number;
  /** The run's deadline (ms since the epoch); Infinity when none. */
  readonly deadlineAt: number;
  /** Says why the run's deadline cut a test off. */
  readonly deadlineText: string;
  /** Resolves when the run is stopped (SIGINT, SIGTERM): the test under way is abandoned. */
  readonly stop?: Promise<TackError>;
}

export async function runOneTest(
  test: TestCase,
  parts: ContextParts,
  limits: TestLimits,
  relevant: readonly string[],
  unseen: TestPlan['unseen'] = [],
): Promise<TestRun> {
  const started = performance.now();
  const left = limits.deadlineAt - Date.now();
  const byDeadline = left < limits.timeoutMs;
  const limitMs = byDeadline ? left : limits.timeoutMs;
  const context = new TestContext(parts, test, Date.now() + limitMs, unseen);
  parts.transcript.setTest(test.id);
  let status: TestOutcome['status'] = 'passed';
  let reason = '';
  let hitDeadline = false;
  let abandoned = false;
  let stoppedAt: RuleId | undefined;
  try {
    const onTimeout = byDeadline ? () => new TackError('TACK_ERR_RUN_DEADLINE', limits.deadlineText) : undefined;
    const stopped = limits.stop?.then((error) => Promise.reject(error));
    stopped?.catch(() => undefined); // raced below; rejects only once the run is stopped
    await withTimeout(stopped ? Promise.race([test.run(context), stopped]) : test.run(context), limitMs, test.id, onTimeout);
  } catch (error) {
    abandoned = isTackError(error, 'TACK_ERR_TIMEOUT') || isTackError(error, 'TACK_ERR_RUN_DEADLINE') || isTackError(error, 'TACK_ERR_INTERRUPTED');
    if (abandoned) context.abandon();
    hitDeadline = isTackError(error, 'TACK_ERR_RUN_DEADLINE') && byDeadline;
    if (error instanceof CheckFailed) {
      status = 'failed';
      stoppedAt = error.rule;
      reason = parts.redactor.redact(error.message);
    } else {
      status = 'error';
      reason = parts.redactor.redact(isTackError(error) ? `${error.code}: ${error.message}` : errorText(error));
    }
  } finally {
    parts.transcript.setTest(undefined);
    await context.undoAll(); // what the test changed on the target and did not undo (a stopped test's), undone
  }
  const durationMs = Math.round(performance.now() - started);
  return { outcome: { id: test.id, title: test.title, rules: relevant, status, reason, durationMs }, context, hitDeadline, abandoned, stoppedAt };
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string, onTimeout?: () => TackError): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(onTimeout?.() ?? new TackError('TACK_ERR_TIMEOUT', `test ${what} did not finish within ${Math.round(ms / 1000)} s`)),
      Math.max(0, ms),
    );
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
