/**
 * `tack client`'s whole run: every scenario of the profile, one after another, each against its own
 * scripted server; what each run of the client sent goes into the transcript (the reports show it
 * next to the rule it judged), every secret it handled into the redactor; then the judges of
 * suites/client give one verdict per rule. The result has the shape of a `tack run` result, so the
 * same reports, baselines and exit codes apply.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedExchange } from '../reference/client-recorder.js';
import { type Redactor, type SecretKind, secretMembers } from '../harness/redactor.js';
import type { RunResult } from '../runner/index.js';
import type { Transcript } from '../harness/transcript.js';
import type { ObservedRun, ScenarioEvidence } from '../../suites/client/evidence.js';
import { judgeClient, type PlayedScenario } from '../../suites/client/index.js';
import { scenariosOf } from '../../suites/client/scenarios.js';
import { type StopSignal, stopText } from '../harness/interrupt.js';
import { type ClientProgram, playScenario, type RawScenario } from './one-scenario.js';
import { type ObservedRequest, originFormOf, type Role } from '../checks/observed-request.js';
import { plural } from '../text/plural.js';
import type { ClientReport, ClientScenarioReport } from '../reporters/results-schema.js';

/**
 * Characters of each output stream kept in the reports (the end of it, after redaction). The
 * client's output is not tack's own text: `redactOutput` also masks any word left that looks like
 * a token (a piece of a secret, a token tack never saw).
 */
const OUTPUT_TAIL = 4000;

interface ClientRunOptions extends ClientProgram {
  readonly runTimeoutS: number;
  readonly deadlineS: number;
  readonly runId: string;
  readonly redactor: Redactor;
  readonly transcript: Transcript;
  /** A line per scenario as it ends (already redacted). */
  readonly onScenario?: (line: string) => void;
  /**
   * Aborted when tack is stopped (SIGINT, SIGTERM; its reason the signal's name): the command under
   * way is stopped with its process group, that scenario and the rest are not played, and what was
   * played is judged.
   */
  readonly signal?: AbortSignal;
}

interface ClientRun {
  readonly result: RunResult;
  readonly report: ClientReport;
}

export async function runClient(options: ClientRunOptions): Promise<ClientRun> {
  const startedAt = new Date();
  const { redactor } = options;
  redactor.addSecretHeader(options.partnerHeaders[1]);
  const deadlineAt = Date.now() + options.deadlineS * 1000;
  const limits = { runTimeoutS: options.runTimeoutS, maxRequests: options.maxRequests };
  const workDir = mkdtempSync(join(tmpdir(), 'tack-client-'));
  const played: PlayedScenario[] = [];
  const reports: ClientScenarioReport[] = [];
  let deadlineHit = false;
  try {
    for (const plan of scenariosOf(options.profile)) {
      const started = performance.now();
      let raw: RawScenario | undefined;
      let notPlayed: string | undefined;
      if (options.signal?.aborted) {
        notPlayed = `not played to its end: ${stopText(options.signal.reason as StopSignal)}`;
      } else if (Date.now() >= deadlineAt) {
        deadlineHit = true;
        notPlayed = `the whole run reached its deadline (--deadline ${options.deadlineS} s) before this scenario`;
      } else {
        try {
          raw = await playScenario(plan, { ...options, runTimeoutMs: options.runTimeoutS * 1000, deadlineAt, workDir });
        } catch (error) {
          notPlayed = options.signal?.aborted
            ? `not played to its end: ${stopText(options.signal.reason as StopSignal)}`
            : `the scripted server could not be set up: ${error instanceof Error ? error.message : String(error)}`;
        }
      }
      const test = `client/${plan.id}`;
      const evidence = raw === undefined ? undefined : record(raw, plan.id, test, options);
      const durationMs = performance.now() - started;
      played.push({ plan, evidence, notPlayed, limits, durationMs });
      const report = scenarioReport(plan.id, plan.title, evidence, notPlayed, redactor);
      reports.push(report);
      options.onScenario?.(redactor.redact(scenarioLine(report, durationMs)));
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  const judged = judgeClient(options.profile, played, { text: (s) => redactor.redact(s), output: (s) => redactor.redactOutput(s) });
  const result: RunResult = {
    runId: options.runId,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    seed: 0,
    numRuns: 0,
    capabilities: [],
    hookContract: undefined,
    hookProblem: undefined,
    fieldsUsed: {},
    rules: judged.rules,
    tests: judged.tests,
    deadline: deadlineHit ? { seconds: options.deadlineS } : undefined,
    interrupted: options.signal?.aborted ? { signal: options.signal.reason as StopSignal } : undefined,
  };
  const report: ClientReport = {
    profile: options.profile,
    command: redactor.redact(shellJoin(options.command)),
    runTimeoutS: options.runTimeoutS,
    deadlineS: options.deadlineS,
    maxRequests: options.maxRequests,
    partnerHeaders: options.profile === 'partner-key' ? [...options.partnerHeaders] : [],
    passEnv: [...options.passEnv],
    scenarios: reports,
  };
  return { result, report };
}

/**
 * Registers every secret of the scenario with the redactor, then writes its exchanges into the
 * transcript (under the scenario's test id) and returns them as the judges' evidence.
 */
function record(raw: RawScenario, id: string, test: string, options: ClientRunOptions): ScenarioEvidence {
  const { redactor, transcript } = options;
  registerSecrets(raw, redactor);
  transcript.setTest(test);
  const requests: ObservedRequest[] = [];
  try {
    for (const exchange of raw.recorded) {
      const headers = headerRecord(exchange.request.headers);
      // The listener that got it, and its path however it was written (an absolute-form target too).
      const url = `${raw.origins[exchange.role] ?? 'http://127.0.0.1'}${originFormOf(exchange.request)}`;
      const seq = transcript.begin({ method: exchange.request.method, url, headers, body: exchange.request.body }, new Date(exchange.receivedAt));
      const response = exchange.response;
      const ms = (exchange.answeredAt ?? exchange.receivedAt) - exchange.receivedAt;
      if (response !== undefined) transcript.end(seq, { ...response, headers: { ...response.headers } }, ms);
      requests.push(observed(exchange, seq, headers, roleOf(routedLabel(exchange.role, headers, raw.hostRoutes), raw.tenantRole)));
    }
  } finally {
    transcript.setTest(undefined);
  }
  const runs: ObservedRun[] = raw.runs.map((run) => ({
    index: run.index,
    end: run.end,
    exitCode: run.exitCode,
    signal: run.signal,
    startProblem: run.startProblem,
    stdout: run.stdout,
    stderr: run.stderr,
    outputTruncated: run.outputTruncated,
    startedAt: run.startedAt,
    durationMs: run.durationMs,
    requests: requests.filter((r) => r.run === run.index),
    tokenFile: run.tokenFile,
  }));
  return { id, settings: raw.settings, runs };
}

function observed(exchange: RecordedExchange, seq: number, headers: Record<string, string>, role: Role): ObservedRequest {
  const r = exchange.response;
  return {
    seq,
    run: exchange.run,
    role,
    method: exchange.request.method,
    target: exchange.request.target,
    headers,
    body: exchange.request.body,
    at: exchange.receivedAt,
    response: r === undefined ? undefined : { status: r.status, headers: r.headers, body: r.body, at: exchange.answeredAt ?? exchange.receivedAt },
  };
}

/** On the Host-routed listener, the label of the host its Host header names (the server routes by it); elsewhere the listener's own. */
export function routedLabel(label: string, headers: Readonly<Record<string, string>>, routes: Readonly<Record<string, string>>): string {
  if (label !== 'host') return label;
  const host = (headers['host'] ?? '').trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  return routes[host] ?? label;
}

/** The tenant host handed to the client is `tenant`; the sign-in server `identity`; anything else `other`. */
function roleOf(label: string, tenantRole: string): Role {
  return label === tenantRole ? 'tenant' : label === 'identity' ? 'identity' : 'other';
}

function headerRecord(lines: readonly (readonly [string, string])[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of lines) {
    const key = name.toLowerCase();
    out[key] = out[key] === undefined ? value : `${out[key]}, ${value}`;
  }
  return out;
}

const ACCESS = /^access_?token$/i;
const REFRESH = /^refresh_?token$/i;

/** Every secret the client was given or the server handed out, before anything is printed. */
function registerSecrets(raw: RawScenario, redactor: Redactor): void {
  redactor.register('api-token', raw.settings.apiToken);
  redactor.register('partner-secret', raw.settings.partner?.secret);
  for (const exchange of raw.recorded) {
    const body = exchange.response?.body;
    if (body === undefined) continue;
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      continue;
    }
    const refreshKind: SecretKind = exchange.role === 'identity' ? 'api-token' : 'refresh-token';
    for (const { name, value } of secretMembers(json)) {
      if (ACCESS.test(name)) redactor.register('access-token', value);
      else if (REFRESH.test(name)) redactor.register(refreshKind, value);
      else redactor.register('secret', value);
    }
  }
}

function scenarioReport(
  id: string,
  title: string,
  evidence: ScenarioEvidence | undefined,
  notPlayed: string | undefined,
  redactor: Redactor,
): ClientScenarioReport {
  const tail = (text: string) => {
    const redacted = redactor.redactOutput(text);
    return redacted.length > OUTPUT_TAIL ? `…${redacted.slice(-OUTPUT_TAIL)}` : redacted;
  };
  const runs = (evidence?.runs ?? []).map((run) => ({
    run: run.index,
    end: run.end,
    exitCode: run.exitCode,
    signal: run.signal,
    startProblem: run.startProblem === undefined ? undefined : redactor.redact(run.startProblem),
    durationMs: run.durationMs,
    requests: run.requests.length,
    exchanges: run.requests.map((r) => r.seq),
    stdout: tail(run.stdout),
    stderr: tail(run.stderr),
    outputTruncated: run.outputTruncated,
  }));
  return { id, title, runs, notPlayed };
}

function scenarioLine(report: ClientScenarioReport, ms: number): string {
  if (report.notPlayed !== undefined) return `- ${report.id}: not played: ${report.notPlayed}`;
  const runs = report.runs.map((r) => {
    const how = r.end === 'exited' ? `exit ${r.exitCode ?? r.signal}` : r.end === 'not-started' ? `not started (${r.startProblem ?? '?'})` : r.end;
    return `run ${r.run}: ${how}, ${plural(r.requests, 'request')}`;
  });
  return `· ${report.id} (${Math.round(ms)} ms): ${runs.join('; ')}`;
}

/** The command as a shell would read it back. */
function shellJoin(command: readonly string[]): string {
  return command.map((word) => (/^[\w./:@%+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(' ');
}
