/**
 * `reports/<run-id>/results.json` and `transcript.jsonl`: the machine-readable record of a run,
 * and the one document every other report (JUnit, Markdown, HTML, bundle) is rendered from.
 * Everything written here goes through the redactor.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TackError } from '../harness/errors.js';
import type { BaselineSummary } from '../runner/baseline.js';
import type { Redactor } from '../harness/redactor.js';
import { uncheckedMusts } from '../runner/exit-policy.js';
import type { RunResult } from '../runner/index.js';
import type { Exchange } from '../harness/transcript.js';
import { CATALOG_VERSION } from '../rules/catalog.js';
import { stopText } from '../harness/interrupt.js';
import { type ClientReport, type ReportRule, type ResultsDocument, type RunStatus, resultsSchema } from './results-schema.js';
import type { TargetConfig } from '../harness/target-config.js';

const RESULTS_SCHEMA = 'tack-results/1';

/** One line of transcript.jsonl: a redacted exchange and the rules its test served. */
interface TranscriptLine extends Exchange {
  readonly rules: readonly string[];
}

interface DocumentExtra {
  readonly version: string;
  readonly strict: boolean;
  readonly requireAll: boolean;
  readonly only: readonly string[];
  readonly faults: readonly string[];
  readonly exitCode: number;
  readonly rules: readonly ReportRule[];
  readonly baseline: BaselineSummary | undefined;
  readonly client?: ClientReport | undefined;
}

/** A run that ended before its verdicts (a configuration error, an unreachable target, a stop during the preflight). */
export interface EndedEarly {
  readonly runId: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly seed: number;
  readonly numRuns: number;
  /** Why, with its TACK_ERR_* code; the message already redacted. */
  readonly error: { readonly code: string; readonly message: string };
}

/**
 * The one builder of results.json: a run's verdicts (`RunResult`), or a run that ended before them
 * (`EndedEarly`: no rule, no test, and the target as far as the configuration was valid enough to
 * say it, `undefined` when not at all).
 */
export function resultsDocument(run: RunResult | EndedEarly, target: TargetConfig | undefined, extra: DocumentExtra): ResultsDocument {
  const result = 'error' in run ? undefined : run;
  return {
    schema: RESULTS_SCHEMA,
    tack: { version: extra.version, catalog: CATALOG_VERSION },
    run: {
      id: run.runId,
      startedAt: run.startedAt,
      finishedAt: run.finishedAt,
      seed: run.seed,
      numRuns: run.numRuns,
      strict: extra.strict,
      requireAll: extra.requireAll,
      uncheckedMust: uncheckedMusts(result?.rules ?? []),
      status: runStatus(run),
      deadline: result?.deadline,
      ...(result?.interrupted ? { interrupted: result.interrupted } : {}),
      ...(result?.notes && result.notes.length > 0 ? { notes: result.notes } : {}),
      only: extra.only,
      faults: target?.builtIn ? extra.faults : [],
      exitCode: extra.exitCode,
    },
    target: {
      baseUrl: target?.baseUrl ?? '',
      otherBaseUrl: target?.otherBaseUrl,
      identityUrl: target?.identityUrl ?? '',
      partnerHeaders: target?.partnerHeaders ?? [],
      clientId: target?.clientId ?? '',
      builtIn: target?.builtIn ?? false,
      mode: modeOf(target, result?.capabilities),
      hook:
        target?.hook && result
          ? { url: target.hook.url, contract: result.hookContract, capabilities: result.capabilities, problem: result.hookProblem }
          : undefined,
      toleranceS: target?.toleranceS ?? 0,
      accessToleranceS: target?.accessToleranceS ?? 0,
      fieldsUsed: result?.fieldsUsed ?? {},
    },
    baseline: extra.baseline,
    ...(result?.tokens ? { tokens: result.tokens } : {}),
    rules: extra.rules,
    tests: result?.tests ?? [],
    ...(result ? errorOf(result) : { error: (run as EndedEarly).error }),
    ...(extra.client !== undefined ? { client: extra.client } : {}),
  };
}

function runStatus(run: RunResult | EndedEarly): RunStatus {
  if ('error' in run) return run.error.code === 'TACK_ERR_INTERRUPTED' ? 'interrupted' : 'error';
  return run.interrupted ? 'interrupted' : run.deadline ? 'deadline' : 'complete';
}

/**
 * How the run reached the target: with the test hook when it offered capabilities; before the hook
 * was discovered (a run that ended early), as configured.
 */
function modeOf(target: TargetConfig | undefined, capabilities: readonly string[] | undefined): ResultsDocument['target']['mode'] {
  const hook = capabilities === undefined ? target?.hook !== undefined : capabilities.length > 0;
  return hook ? 'hook' : target?.hookless ? 'hookless' : target?.userEmail ? 'user-only' : 'none';
}

/** The error of a run that has verdicts: the stop signal, or the run's deadline. */
function errorOf(result: RunResult): Pick<ResultsDocument, 'error'> {
  if (result.interrupted) return { error: { code: 'TACK_ERR_INTERRUPTED', message: stopText(result.interrupted.signal) } };
  if (!result.deadline) return {};
  const message = `the run did not finish within ${result.deadline.seconds} s (TACK_RUN_DEADLINE_S); the rules it did not reach are error`;
  return { error: { code: 'TACK_ERR_RUN_DEADLINE', message } };
}

/** The transcript lines of a run: each redacted exchange with the rules of the test it served. */
export function transcriptLines(exchanges: readonly Exchange[], tests: RunResult['tests']): TranscriptLine[] {
  const rulesOf = new Map(tests.map((t) => [t.id, t.rules]));
  return exchanges.map((e) => ({ ...e, rules: e.test === undefined ? [] : [...(rulesOf.get(e.test) ?? [])] }));
}

/** Every string of a JSON value through `redact` (deep copy). Value-based only: names are kept. */
export function redactStrings<T>(value: T, redact: (s: string) => string): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => redactStrings(v, redact)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactStrings(v, redact);
    return out as T;
  }
  return value;
}

/** Writes results.json and transcript.jsonl into `dir`; returns their paths. */
export function writeJsonReports(
  dir: string,
  doc: ResultsDocument,
  lines: readonly TranscriptLine[],
  redactor: Redactor,
): { results: string; transcript: string } {
  mkdirSync(dir, { recursive: true });
  const results = join(dir, 'results.json');
  const transcriptPath = join(dir, 'transcript.jsonl');
  writeFileSync(results, `${redactor.redact(JSON.stringify(doc, null, 2))}\n`);
  const text = lines.map((e) => redactor.redact(JSON.stringify(e))).join('\n');
  writeFileSync(transcriptPath, text === '' ? '' : `${text}\n`);
  return { results, transcript: transcriptPath };
}

/** Reads a results.json written by this version of tack (schema checked). */
export function readResults(path: string): ResultsDocument {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'not JSON';
    throw new TackError('TACK_ERR_USAGE', `${path} could not be read as results.json (${code})`);
  }
  if ((doc as { schema?: unknown } | null)?.schema !== RESULTS_SCHEMA) throw new TackError('TACK_ERR_USAGE', `${path} is not a ${RESULTS_SCHEMA} results file`);
  const parsed = resultsSchema.safeParse(doc);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new TackError(
      'TACK_ERR_USAGE',
      `${path} is not a valid ${RESULTS_SCHEMA} results file: ${first ? `${first.path.join('.')}: ${first.message}` : 'bad shape'}`,
    );
  }
  return doc as ResultsDocument;
}

/** The results.json of the most recent run under `reportsDir`, or undefined when there is none. */
export function latestResults(reportsDir: string): string | undefined {
  if (!existsSync(reportsDir)) return undefined;
  let best: { path: string; mtime: number } | undefined;
  for (const name of readdirSync(reportsDir)) {
    const path = join(reportsDir, name, 'results.json');
    if (!existsSync(path)) continue;
    const mtime = statSync(path).mtimeMs;
    if (!best || mtime > best.mtime || (mtime === best.mtime && path > best.path)) best = { path, mtime };
  }
  return best?.path;
}
