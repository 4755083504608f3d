/**
 * A conformance run to its reports, as `tack run` and `tack certify` make it: every rule against
 * the configured target (or the built-in reference server), a line per rule as it finishes, a
 * summary, and the reports under `reports/<run-id>/`. Stopped by SIGINT
 * or SIGTERM, it revokes what it generated, writes every report (status `interrupted`) and exits
 * 130 or 143 (src/harness/interrupt.ts).
 */
import { ALL_TESTS } from '../../suites/index.js';
import { revokeEarlierRuns } from '../harness/cleanup/earlier-runs.js';
import { EXIT, isTackError, redactError } from '../harness/errors.js';
import { type Interrupt, stopError, stopText } from '../harness/interrupt.js';
import { preflight } from '../harness/preflight.js';
import { runConformance, type RunResult } from '../runner/index.js';
import { newRunId, openSession, redactorForConfig, type Session } from '../harness/session.js';
import { startBuiltIn } from './built-in.js';
import { writeErrorReports } from '../reporters/error-reports.js';
import { ruleLine } from '../reporters/console.js';
import { replayArgs } from '../reporters/judged-exchanges.js';
import { TACK_VERSION } from '../version.js';
import { checkOnly } from './options.js';
import { endRun, type RunEnd } from './run-end.js';

export interface RunCommandOptions {
  envFile?: string;
  only: string[];
  seed?: number;
  runs: number;
  path?: string;
  strict: boolean;
  /** A MUST rule that could not be checked (skipped) fails the run. */
  requireAll?: boolean;
  reports: string;
  fault: string[];
  quiet: boolean;
  baseline?: string;
  /** Per-test time limit (certification raises it for its 100 runs per property). */
  testTimeoutMs?: number;
  /** Requests per second at most (politeness to a shared UAT); unlimited when absent. */
  maxRps?: number;
}

/** The whole command as a function, so tests drive it in-process. Returns the exit code (see `conformanceRun`). */
export async function runCommand(
  opts: RunCommandOptions,
  write: (s: string) => void,
  env: NodeJS.ProcessEnv = process.env,
  interrupt?: Interrupt,
): Promise<number> {
  return (await conformanceRun(opts, write, env, interrupt)).exitCode;
}

/**
 * The run to its end, in memory (`tack certify` bundles it). A run that ends before its verdicts
 * (configuration error, unreachable target) still writes its reports, with the error and its code,
 * then throws it: a pipeline's artifact step never finds nothing.
 */
export async function conformanceRun(
  opts: RunCommandOptions,
  write: (s: string) => void,
  env: NodeJS.ProcessEnv = process.env,
  interrupt?: Interrupt,
): Promise<RunEnd> {
  const startedAt = new Date();
  const runId = newRunId(startedAt);
  const seed = opts.seed ?? (Date.now() ^ (Math.random() * 0x7fffffff)) >>> 0;
  let session: Session | undefined;
  try {
    checkOnly(opts.only, 'server');
    session = await openSession({ envFile: opts.envFile, env, faults: opts.fault, builtIn: startBuiltIn, runId });
    session.http.politeness.setMaxRps(opts.maxRps);
    return await runInSession(session, { ...opts, seed }, write, interrupt);
  } catch (error) {
    const redactor = session?.redactor ?? redactorForConfig(opts.envFile, env);
    // Stopped before the tests (during the preflight): the stop is the reason, whatever failed after it.
    const stopped = interrupt?.signal !== undefined && !isTackError(error, 'TACK_ERR_CONFIG') ? stopError(interrupt.signal) : error;
    const redacted = redactError(stopped, (s) => redactor.redact(s));
    if (isTackError(redacted)) {
      const policy = { strict: opts.strict, requireAll: opts.requireAll ?? false };
      const dir = writeErrorReports(
        { runId, startedAt, reportsDir: opts.reports, error: redacted, target: session?.target, seed, numRuns: opts.runs, only: opts.only, policy },
        redactor,
      );
      write(`Reports: ${dir}\n`);
    }
    throw redacted;
  } finally {
    await session?.close();
  }
}

async function runInSession(session: Session, opts: RunCommandOptions, write: (s: string) => void, interrupt?: Interrupt): Promise<RunEnd> {
  const { target, redactor } = session;
  const seed = opts.seed!;
  write(
    redactor.redact(
      `tack ${TACK_VERSION} run ${session.runId}\n` +
        `target ${target.baseUrl}${target.builtIn ? ' (built-in reference server)' : ''}, sign-in ${target.identityUrl}\n` +
        `seed ${seed}, ${opts.runs} runs per property${opts.only.length ? `, only ${opts.only.join(',')}` : ''}\n\n`,
    ),
  );
  await preflight(session);
  for (const line of await revokeEarlierRuns(session)) write(`${redactor.redact(line)}\n`);
  // Past the deadline the runner abandons the test under way and starts no other: those rules are
  // `error` (TACK_ERR_RUN_DEADLINE), and the reports below are still written.
  const result: RunResult = await runConformance({
    target,
    tests: ALL_TESTS,
    only: opts.only,
    seed,
    numRuns: opts.runs,
    path: opts.path,
    runId: session.runId,
    http: session.http,
    redactor,
    transcript: session.transcript,
    ledger: session.ledger,
    ...(interrupt ? { interrupt } : {}),
    deadlineAt: Date.now() + target.runDeadlineS * 1000,
    ...(opts.testTimeoutMs !== undefined ? { testTimeoutMs: opts.testTimeoutMs } : {}),
    onRule: opts.quiet
      ? undefined
      : (r) => write(`${redactor.redact(ruleLine(r, replayArgs({ envFile: opts.envFile, faults: opts.fault }, target.builtIn)))}\n`),
  });
  const policy = { strict: opts.strict, requireAll: opts.requireAll ?? false };
  const end = await endRun(
    session,
    result,
    { policy, baseline: opts.baseline, interrupt, only: opts.only, reportsDir: opts.reports, faults: opts.fault, envFile: opts.envFile },
    write,
  );
  const exitCode = end.exitCode;
  // The documented codes CI scripts match on (docs/errors.md), for the outcomes that are not a verdict.
  if (result.interrupted) {
    write(`tack: TACK_ERR_INTERRUPTED: ${stopText(result.interrupted.signal)}; the rules it did not reach are reported as error\n`);
  } else if (result.passwordRefused !== undefined) {
    write(redactor.redact(`tack: ${result.passwordRefusedCode ?? 'TACK_ERR_USER_PASSWORD'}: ${result.passwordRefused}\n`));
  } else if (exitCode === EXIT.nothingChecked)
    write('tack: TACK_ERR_NOTHING_CHECKED: no rule could be checked: every selected rule was skipped (tack doctor says what each one needs)\n');
  else if (exitCode === EXIT.incomplete && result.hookProblem !== undefined) write(redactor.redact(`tack: TACK_ERR_HOOK: ${result.hookProblem}\n`));
  else if (result.deadline)
    write(
      `tack: TACK_ERR_RUN_DEADLINE: the run did not finish within ${result.deadline.seconds} s (TACK_RUN_DEADLINE_S); ` +
        'the rules it did not reach are reported as error\n',
    );
  return end;
}
