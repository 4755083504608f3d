/**
 * `reports/<run-id>/results.json` and `transcript.jsonl`: the machine-readable record of a run,
 * and the one document every other report (JUnit, Markdown, HTML, bundle) is rendered from.
 * Everything written here goes through the redactor.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TackError } from '../harness/errors.js';
import type { BaselineMark, BaselineSummary } from '../runner/baseline.js';
import type { Redactor } from '../harness/redactor.js';
import { uncheckedMusts } from '../runner/exit-policy.js';
import type { RunResult } from '../runner/index.js';
import type { TokenReport } from '../harness/cleanup/ledger.js';
import type { Exchange } from '../harness/transcript.js';
import { CATALOG_VERSION } from '../rules/catalog.js';
import { stopText } from '../harness/interrupt.js';
import { resultsSchema } from './results-schema.js';
import type { TargetConfig } from '../harness/target-config.js';
import type { RuleResult } from '../runner/results.js';

export const RESULTS_SCHEMA = 'tack-results/1';

/** A shell variable a reproduction command reads instead of a secret. */
export interface ShellVariable {
  readonly name: string;
  readonly meaning: string;
}

/** A curl command that sends again the request that judged a rule; secrets are `${TACK_...}` variables. */
export interface Reproduction {
  /** Transcript sequence number of the request. */
  readonly exchange: number;
  readonly curl: string;
  readonly variables: readonly ShellVariable[];
  /** For a failed check: a bash script replaying the whole sequence that led to it (a path inside the run's folder, `reproduce/RULE.sh`). */
  readonly script?: string;
}

export interface ReportRule extends RuleResult {
  /** Transcript sequence numbers of the exchanges that judged the rule (the failed checks' when any failed). */
  readonly exchanges: readonly number[];
  readonly reproduce?: Reproduction;
  /** `tack run --seed S --path P --only RULE` for a failed property. */
  readonly replay?: string;
  readonly baseline?: BaselineMark;
  /** The baseline entry's reason, for an expected failure or an accepted skip. */
  readonly baselineReason?: string;
}

/** One run of a client under test (`tack client`): how it ended, what it sent, the end of its output (redacted). */
export interface ClientRunReport {
  readonly run: number;
  readonly end: 'exited' | 'timed-out' | 'cut-off' | 'not-started';
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly startProblem: string | undefined;
  readonly durationMs: number;
  readonly requests: number;
  /** Transcript sequence numbers of its requests. */
  readonly exchanges: readonly number[];
  readonly stdout: string;
  readonly stderr: string;
  readonly outputTruncated: boolean;
}

export interface ClientScenarioReport {
  readonly id: string;
  readonly title: string;
  readonly runs: readonly ClientRunReport[];
  /** Why the scenario was not played, when it was not. */
  readonly notPlayed: string | undefined;
}

/** What `tack client` ran: the profile, the command (redacted), its limits and every scenario's runs. */
export interface ClientReport {
  readonly profile: string;
  readonly command: string;
  readonly runTimeoutS: number;
  readonly deadlineS: number;
  readonly maxRequests: number;
  readonly partnerHeaders: readonly string[];
  readonly passEnv: readonly string[];
  readonly scenarios: readonly ClientScenarioReport[];
}

export interface ResultsDocument {
  readonly schema: typeof RESULTS_SCHEMA;
  readonly tack: { readonly version: string; readonly catalog: string };
  readonly run: {
    readonly id: string;
    readonly startedAt: string;
    readonly finishedAt: string;
    readonly seed: number;
    readonly numRuns: number;
    readonly strict: boolean;
    /** A MUST rule not checked fails the run (`--require-all`; certification). */
    readonly requireAll: boolean;
    /** MUST rules that were not checked (skipped): what a green run did not see. */
    readonly uncheckedMust: number;
    /**
     * How the run ended: `complete` (every selected test ran or was skipped), `deadline`
     * (TACK_RUN_DEADLINE_S cut it short), `interrupted` (SIGINT or SIGTERM), `error` (it ended
     * before any verdict). Absent in results written by earlier builds of tack.
     */
    readonly status?: RunStatus;
    /** Set when TACK_RUN_DEADLINE_S cut the run short. */
    readonly deadline: { readonly seconds: number } | undefined;
    /** Set when SIGINT or SIGTERM stopped the run. */
    readonly interrupted?: { readonly signal: string } | undefined;
    /** What the run says about its own configuration (a variable set and not used). */
    readonly notes?: readonly string[] | undefined;
    readonly only: readonly string[];
    /** Faults the built-in reference server was started with (empty for a real target). */
    readonly faults: readonly string[];
    /** The exit code of the run, after the baseline if one was given. */
    readonly exitCode: number;
  };
  readonly target: {
    readonly baseUrl: string;
    readonly otherBaseUrl: string | undefined;
    readonly identityUrl: string;
    readonly partnerHeaders: readonly string[];
    readonly clientId: string;
    readonly builtIn: boolean;
    /** hook: the test hook; hookless: a token file; user-only: TACK_USER_EMAIL without a token file; none. */
    readonly mode: 'hook' | 'hookless' | 'user-only' | 'none';
    readonly hook:
      | { readonly url: string; readonly contract: string | undefined; readonly capabilities: readonly string[]; readonly problem: string | undefined }
      | undefined;
    readonly toleranceS: number;
    readonly accessToleranceS: number;
    readonly fieldsUsed: Record<string, string>;
  };
  readonly baseline: BaselineSummary | undefined;
  /** The API tokens tack generated: revoked, left alive (which and why); absent for `tack client`. */
  readonly tokens?: TokenReport | undefined;
  readonly rules: readonly ReportRule[];
  readonly tests: RunResult['tests'];
  /** Set when the run ended before any verdict (configuration error, unreachable target): its code and message. */
  readonly error?: { readonly code: string; readonly message: string };
  /** Set by `tack client`: the rules judge a client under test, and `target` is its scripted server. */
  readonly client?: ClientReport;
}

export type RunStatus = 'complete' | 'deadline' | 'interrupted' | 'error';

/** One line of transcript.jsonl: a redacted exchange and the rules its test served. */
export interface TranscriptLine extends Exchange {
  readonly rules: readonly string[];
}

export interface DocumentExtra {
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

export function resultsDocument(result: RunResult, target: TargetConfig, extra: DocumentExtra): ResultsDocument {
  return {
    schema: RESULTS_SCHEMA,
    tack: { version: extra.version, catalog: CATALOG_VERSION },
    run: {
      id: result.runId,
      startedAt: result.startedAt,
      finishedAt: result.finishedAt,
      seed: result.seed,
      numRuns: result.numRuns,
      strict: extra.strict,
      requireAll: extra.requireAll,
      uncheckedMust: uncheckedMusts(result.rules),
      status: result.interrupted ? 'interrupted' : result.deadline ? 'deadline' : 'complete',
      deadline: result.deadline,
      ...(result.interrupted ? { interrupted: result.interrupted } : {}),
      ...(result.notes && result.notes.length > 0 ? { notes: result.notes } : {}),
      only: extra.only,
      faults: target.builtIn ? extra.faults : [],
      exitCode: extra.exitCode,
    },
    target: {
      baseUrl: target.baseUrl,
      otherBaseUrl: target.otherBaseUrl,
      identityUrl: target.identityUrl,
      partnerHeaders: target.partnerHeaders,
      clientId: target.clientId,
      builtIn: target.builtIn,
      mode: result.capabilities.length > 0 ? 'hook' : target.hookless ? 'hookless' : target.userEmail ? 'user-only' : 'none',
      hook: target.hook ? { url: target.hook.url, contract: result.hookContract, capabilities: result.capabilities, problem: result.hookProblem } : undefined,
      toleranceS: target.toleranceS,
      accessToleranceS: target.accessToleranceS,
      fieldsUsed: result.fieldsUsed,
    },
    baseline: extra.baseline,
    ...(result.tokens ? { tokens: result.tokens } : {}),
    rules: extra.rules,
    tests: result.tests,
    ...(result.interrupted ? { error: { code: 'TACK_ERR_INTERRUPTED', message: stopText(result.interrupted.signal) } } : {}),
    ...(result.deadline && !result.interrupted
      ? {
          error: {
            code: 'TACK_ERR_RUN_DEADLINE',
            message: `the run did not finish within ${result.deadline.seconds} s (TACK_RUN_DEADLINE_S); the rules it did not reach are error`,
          },
        }
      : {}),
    ...(extra.client !== undefined ? { client: extra.client } : {}),
  };
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
