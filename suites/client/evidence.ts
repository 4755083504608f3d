/**
 * What `tack client` observed of a client under test, as plain data: per scenario, each run of the
 * command (exit code, stdout, stderr, how it ended) and every request it sent, with the answer it
 * got. The judges (this folder) decide verdicts from this data alone: they never see the server
 * that answered, so the client rules are judged by an implementation independent of it.
 *
 * The data is raw (tokens and secrets included), held in memory only: judges describe tokens by
 * kind, never by value, and everything that leaves memory goes through the redactor.
 */
import {
  answered2xx,
  describeRequest,
  isApiCall,
  isBusinessSearch,
  isMint,
  isPartnerRefresh,
  type ObservedRequest,
  pathOf,
} from '../../src/checks/observed-request.js';
import { plural } from '../../src/text/plural.js';
import { PATHS } from '../../src/spec.js';

export type Profile = 'personal-token' | 'partner-key';

export const PROFILES: readonly Profile[] = ['personal-token', 'partner-key'];

/** How a run of the command ended. */
type RunEnd = 'exited' | 'timed-out' | 'cut-off' | 'not-started';

export interface ObservedRun {
  /** 1-based. */
  readonly index: number;
  readonly end: RunEnd;
  /** Exit code when it exited by itself; null when a signal ended it or it never started. */
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** Why it could not be started (command not found...). */
  readonly startProblem: string | undefined;
  readonly stdout: string;
  readonly stderr: string;
  /** More output was written than kept: the rest was not examined. */
  readonly outputTruncated: boolean;
  /** Real time, ms since the epoch. */
  readonly startedAt: number;
  readonly durationMs: number;
  readonly requests: readonly ObservedRequest[];
  /** The token file just before and just after the run (personal-token); undefined otherwise. */
  readonly tokenFile: { readonly before: TokenFileState | null; readonly after: TokenFileState | null } | undefined;
}

/** The token file as tack found it: its inode, permission bits and content (raw); null when it was not there. */
export interface TokenFileState {
  readonly ino: number;
  /** Permission bits (`mode & 0o777`). */
  readonly mode: number;
  readonly content: string;
}

/** What the client was given in the scenario (the values of its PAYROLL_* variables). */
export interface ScenarioSettings {
  readonly profile: Profile;
  /** The sign-in client id (`payroll-portal`). */
  readonly clientId: string;
  /** The path of PAYROLL_IDENTITY_URL (the realm path, e.g. `/realms/payroll`). */
  readonly identityPath: string;
  /** The personal API token in PAYROLL_API_TOKEN_FILE at the start (personal-token). */
  readonly apiToken: string | undefined;
  /** The partner key and its two header names (partner-key). */
  readonly partner: { readonly clientId: string; readonly secret: string; readonly headers: readonly [string, string] } | undefined;
  /** PAYROLL_USER_EMAIL (partner-key). */
  readonly userEmail: string | undefined;
}

export interface ScenarioEvidence {
  readonly id: string;
  readonly settings: ScenarioSettings;
  readonly runs: readonly ObservedRun[];
}

// ── Reading requests in a scenario's settings (the others: src/checks/observed-request.ts) ─────────

/** The exchange endpoint's path for these settings (`/realms/payroll/protocol/openid-connect/token`). */
export function exchangePath(settings: ScenarioSettings): string {
  return settings.identityPath + PATHS.exchange;
}

/** Any POST to the sign-in server that is not a revocation: an attempt to exchange, well-formed or not. */
export function isExchange(request: ObservedRequest, settings: ScenarioSettings): boolean {
  return request.role === 'identity' && request.method === 'POST' && pathOf(request) !== settings.identityPath + PATHS.revoke;
}

/** An attempt to get a new access token: an exchange, a partner mint or a partner refresh. */
export function isRenewal(request: ObservedRequest, settings: ScenarioSettings): boolean {
  return isExchange(request, settings) || isMint(request) || isPartnerRefresh(request);
}

/** Every request of the scenario, in the order they arrived. */
export function requestsOf(scenario: ScenarioEvidence): ObservedRequest[] {
  return scenario.runs.flatMap((run) => run.requests);
}

/** A POST to the sign-in server's revoke endpoint. */
export function isRevocation(request: ObservedRequest, settings: ScenarioSettings): boolean {
  return request.role === 'identity' && request.method === 'POST' && pathOf(request) === settings.identityPath + PATHS.revoke;
}

/**
 * The run reached its work: it tried to get an access token or called the API. A run that gave
 * up before (it read discovery and stopped, it sent nothing) had no chance to break most rules:
 * what it did wrong still counts, but it is no evidence that a rule holds.
 */
export function reachedWork(run: ObservedRun, settings: ScenarioSettings): boolean {
  return run.requests.some((r) => isRenewal(r, settings) || isApiCall(r));
}

/** The run's business search succeeded: at least one answered 2xx. */
export function searchSucceeded(run: ObservedRun): boolean {
  return run.requests.some((r) => isBusinessSearch(r) && answered2xx(r));
}

/** How a run ended, in words: `exit 1`, `stopped at --run-timeout`... */
export function endOf(run: ObservedRun): string {
  switch (run.end) {
    case 'exited':
      return run.exitCode === null ? `ended by ${run.signal ?? 'a signal'}` : `exit ${run.exitCode}`;
    case 'timed-out':
      return 'stopped at --run-timeout';
    case 'cut-off':
      return 'cut off at --max-requests';
    case 'not-started':
      return `not started (${run.startProblem ?? 'unknown reason'})`;
  }
}

/** What a run sent, shortly: `2 requests (#1 GET /realms/payroll/.well-known/openid-configuration → 200, …)`. */
export function sentBy(run: ObservedRun): string {
  if (run.requests.length === 0) return 'no request';
  const listed = run.requests.slice(0, 3).map(describeRequest).join(', ');
  return `${plural(run.requests.length, 'request')} (${listed}${run.requests.length > 3 ? ', …' : ''})`;
}

/**
 * Runs of these scenarios that gave up before their work (no exchange, mint or API call), in
 * words: why a rule had nothing to judge, told as it happened.
 */
export function earlyEnds(scenarios: readonly ScenarioEvidence[]): string[] {
  return scenarios.flatMap((scenario) =>
    scenario.runs
      .filter((run) => run.end !== 'not-started' && !reachedWork(run, scenario.settings))
      .map((run) => `${scenario.id} run ${run.index}: ${endOf(run)} after ${sentBy(run)}, before any exchange, mint or API call`),
  );
}
