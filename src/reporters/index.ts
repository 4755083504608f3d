/**
 * Writes every report of a run into `reports/<run-id>/` and says where: results.json,
 * transcript.jsonl, junit.xml, summary.md and report.html, and the screenshots of failed browser
 * checks under `screenshots/`. All five reports are rendered from one redacted results document and
 * the redacted transcript, and each file passes through the redactor once more as it is written.
 *
 * The exit code may be changed by a baseline of expected failures (undefined: keep the runner's).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RunResult } from '../runner/index.js';
import type { Session } from '../harness/session.js';
import { TACK_VERSION } from '../version.js';
import { ShellSecrets } from './curl.js';
import { replayArgs, withEvidence } from './judged-exchanges.js';
import { renderHtml } from './report-html.js';
import { redactStrings, resultsDocument, transcriptLines, writeJsonReports } from './json.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import { type ReproduceInput, reproduceScript } from './reproduce.js';
import { writeScreenshots } from './screenshots.js';
import type { RunOutcome } from '../runner/outcome.js';
import type { ClientReport, ReportRule, ResultsDocument } from './results-schema.js';

export interface WriteOptions {
  /** The run's exit code and baseline, decided by the command (decideOutcome). */
  readonly outcome: RunOutcome;
  readonly only: readonly string[];
  readonly reportsDir: string;
  /** Faults of the built-in reference server, repeated in replay commands. */
  readonly faults?: readonly string[];
  /** The `--env-file` of the run, repeated in replay commands. */
  readonly envFile?: string | undefined;
  /** `tack client`: what ran; the reports then describe the client, and offer no curl to resend its requests. */
  readonly client?: ClientReport;
}

/** What the reports need of a session: `tack run`'s, or the one `tack client` makes for its scripted servers. */
export type ReportSession = Pick<Session, 'target' | 'redactor' | 'transcript' | 'runId'>;

interface Written {
  readonly dir: string;
  readonly files: readonly string[];
  /** Lines for the console: what the baseline found (now passing, new failures). */
  readonly notes: readonly string[];
  readonly document: ResultsDocument;
}

export const REPORT_FILES = ['results.json', 'transcript.jsonl', 'junit.xml', 'summary.md', 'report.html'] as const;

/**
 * A failed (or warning) rule's reproduction gets the script of the whole sequence behind its first
 * failed check (reproduce.ts), kept in `scripts` under its path in the run's folder.
 */
function withScript(rule: ReportRule, input: Omit<ReproduceInput, 'rule' | 'check'>, offered: boolean, scripts: Map<string, string>): ReportRule {
  const check = rule.checks.find((c) => !c.ok);
  if (!offered || !rule.reproduce || check === undefined || (rule.status !== 'failed' && rule.status !== 'warning')) return rule;
  const script = reproduceScript({ ...input, rule: rule.id, check });
  if (script === undefined) return rule;
  const path = `reproduce/${rule.id}.sh`;
  scripts.set(path, script);
  return { ...rule, reproduce: { ...rule.reproduce, script: path } };
}

export async function writeRunReports(session: ReportSession, result: RunResult, options: WriteOptions): Promise<Written> {
  const { redactor, target } = session;
  const dir = join(options.reportsDir, session.runId);
  const redact = (s: string) => redactor.redact(s);
  const exchanges = session.transcript.redacted(redactor);
  const faults = options.faults ?? [];

  const { applied, baselineProblem, exitCode, policy } = options.outcome;

  const context = {
    exchanges: new Map(exchanges.map((e) => [e.seq, e])),
    secrets: new ShellSecrets(target, redactor),
    hookUrl: target.hook?.url,
    replayArgs: replayArgs({ envFile: options.envFile, faults }, target.builtIn),
    reproduce: options.client === undefined,
  };
  const shots = writeScreenshots(dir, result);
  const scripts = new Map<string, string>();
  const rules: ReportRule[] = shots.rules.map((r) => {
    const rule = withScript(
      withEvidence(r, context),
      { exchanges, target, secrets: context.secrets, runId: session.runId },
      options.client === undefined,
      scripts,
    );
    const mark = applied?.marks.get(r.id);
    const why = applied?.reasons.get(r.id);
    return mark ? { ...rule, baseline: mark, ...(why !== undefined ? { baselineReason: why } : {}) } : rule;
  });
  const doc = redactStrings(
    resultsDocument(result, target, {
      version: TACK_VERSION,
      strict: policy.strict,
      requireAll: policy.requireAll,
      only: options.only,
      faults,
      exitCode,
      rules,
      baseline: applied?.summary ?? baselineProblem,
      client: options.client,
    }),
    redact,
  );

  const json = writeJsonReports(dir, doc, transcriptLines(exchanges, result.tests), redactor);
  const files = [json.results, json.transcript];
  const rendered: [string, string][] = [
    ['junit.xml', renderJunit(doc)],
    ['summary.md', renderMarkdown(doc)],
    ['report.html', renderHtml(doc, exchanges, shots.images, scripts)],
  ];
  for (const [name, text] of scripts) {
    mkdirSync(join(dir, dirname(name)), { recursive: true });
    writeFileSync(join(dir, name), redact(text), { mode: 0o755 });
    files.push(join(dir, name));
  }
  for (const [name, text] of rendered) {
    const path = join(dir, name);
    writeFileSync(path, redact(text));
    files.push(path);
  }
  files.push(...shots.files);
  const notes = (applied?.summary ?? baselineProblem)?.notes.map((n) => `baseline: ${n}`) ?? [];
  return { dir, files, notes, document: doc };
}
