/**
 * Writes every report of a run into `reports/<run-id>/` and says where: results.json,
 * transcript.jsonl, junit.xml, summary.md and report.html. All five are rendered from one
 * redacted results document and the redacted transcript, and each file passes through the
 * redactor once more as it is written.
 *
 * The exit code may be changed by a baseline of expected failures (undefined: keep the runner's).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TackError } from '../harness/errors.js';
import { exitCodeOf, type RunResult } from '../harness/runner.js';
import type { Session } from '../harness/session.js';
import { TACK_VERSION } from '../cli/options.js';
import { applyBaseline, readBaseline, type AppliedBaseline } from './baseline.js';
import { ShellSecrets } from './curl.js';
import { withEvidence } from './evidence.js';
import { renderHtml } from './html.js';
import { redactStrings, resultsDocument, transcriptLines, writeJsonReports, type BaselineSummary, type ReportRule, type ResultsDocument } from './json.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';

export interface WriteOptions {
  readonly strict: boolean;
  readonly only: readonly string[];
  readonly baseline: string | undefined;
  readonly reportsDir: string;
  /** Faults of the built-in reference server, repeated in replay commands. */
  readonly faults?: readonly string[];
  /** The `--env-file` of the run, repeated in replay commands. */
  readonly envFile?: string | undefined;
}

export interface Written {
  readonly dir: string;
  readonly files: readonly string[];
  readonly exitCode: number | undefined;
  /** Lines for the console: what the baseline found (now passing, new failures). */
  readonly notes: readonly string[];
  readonly document: ResultsDocument;
}

export const REPORT_FILES = ['results.json', 'transcript.jsonl', 'junit.xml', 'summary.md', 'report.html'] as const;

export async function writeRunReports(session: Session, result: RunResult, options: WriteOptions): Promise<Written> {
  const { redactor, target } = session;
  const dir = join(options.reportsDir, session.runId);
  const redact = (s: string) => redactor.redact(s);
  const exchanges = session.transcript.redacted(redactor);
  const faults = options.faults ?? [];

  let applied: AppliedBaseline | undefined;
  let baselineProblem: BaselineSummary | undefined;
  if (options.baseline !== undefined) {
    try {
      applied = applyBaseline(readBaseline(options.baseline), result, options.strict);
    } catch (error) {
      const message = error instanceof TackError ? error.message : String(error);
      baselineProblem = { file: options.baseline, entries: 0, expected: [], nowPassing: [], newFailures: [], notes: [message] };
    }
  }
  // A baseline that cannot be read is a configuration error (exit 2); the reports are still written.
  const exitCode = baselineProblem ? 2 : applied ? applied.exitCode : exitCodeOf(result, options.strict);

  const replayArgs = [...(options.envFile ? [`--env-file ${options.envFile}`] : []), ...(target.builtIn ? faults.map((f) => `--fault ${f}`) : [])];
  const context = {
    exchanges: new Map(exchanges.map((e) => [e.seq, e])),
    secrets: new ShellSecrets(target, redactor),
    hookUrl: target.hook?.url,
    replayArgs,
  };
  const rules: ReportRule[] = result.rules.map((r) => {
    const rule = withEvidence(r, context);
    const mark = applied?.marks.get(r.id);
    return mark ? { ...rule, baseline: mark } : rule;
  });
  const doc = redactStrings(
    resultsDocument(result, target, { version: TACK_VERSION, strict: options.strict, only: options.only, faults, exitCode, rules, baseline: applied?.summary ?? baselineProblem }),
    redact,
  );

  const json = writeJsonReports(dir, doc, transcriptLines(exchanges, result.tests), redactor);
  const files = [json.results, json.transcript];
  const rendered: [string, string][] = [
    ['junit.xml', renderJunit(doc)],
    ['summary.md', renderMarkdown(doc)],
    ['report.html', renderHtml(doc, exchanges)],
  ];
  for (const [name, text] of rendered) {
    const path = join(dir, name);
    writeFileSync(path, redact(text));
    files.push(path);
  }
  const notes = (applied?.summary ?? baselineProblem)?.notes.map((n) => `baseline: ${n}`) ?? [];
  return { dir, files, exitCode: options.baseline !== undefined ? exitCode : undefined, notes, document: doc };
}
