/**
 * The end of a run, as `tack run`, `tack client` and both certifications make it: the outcome (the
 * exit policy, the baseline, a stop signal's code), every report, the summary, the baseline's notes
 * and where the reports are. The line a command prints after that (a TACK_ERR_* code) is its own.
 */
import type { Interrupt } from '../harness/interrupt.js';
import { printSummary } from '../reporters/console.js';
import { type ReportSession, type WriteOptions, writeRunReports } from '../reporters/index.js';
import type { ResultsDocument } from '../reporters/results-schema.js';
import type { ExitPolicy } from '../runner/exit-policy.js';
import type { RunResult } from '../runner/index.js';
import { decideOutcome } from '../runner/outcome.js';

/** A run at its end, in memory: what a command returns, and what a certification bundles. */
export interface RunEnd {
  readonly exitCode: number;
  readonly result: RunResult;
  /** The run's results.json, as written (redacted). */
  readonly document: ResultsDocument;
  /** The run's folder. */
  readonly dir: string;
}

interface EndOptions extends Omit<WriteOptions, 'outcome'> {
  readonly policy: ExitPolicy;
  /** A file of expected failures (`--baseline`). */
  readonly baseline: string | undefined;
  /** A stop signal's exit code (130, 143) wins over the verdicts. */
  readonly interrupt?: Interrupt | undefined;
}

export async function endRun(session: ReportSession, result: RunResult, options: EndOptions, write: (s: string) => void): Promise<RunEnd> {
  const { policy, baseline, interrupt, ...report } = options;
  const decided = decideOutcome(result, policy, baseline);
  const outcome = interrupt?.exitCode !== undefined ? { ...decided, exitCode: interrupt.exitCode } : decided;
  const written = await writeRunReports(session, result, { ...report, outcome });
  printSummary(written.document, session.redactor, write);
  for (const note of written.notes) write(session.redactor.redact(`\n${note}`));
  if (written.notes.length > 0) write('\n');
  write(`\nReports: ${written.dir}\n`);
  return { exitCode: outcome.exitCode, result, document: written.document, dir: written.dir };
}
