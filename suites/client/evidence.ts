/**
 * What `tack client` observed of a client under test, as plain data: per scenario, each run of the
 * command (exit code, stdout, stderr, how it ended) and every request it sent, with the answer it
 * got. The judges (this folder) decide verdicts from this data alone: they never see the server
 * that answered, so the client rules are judged by an implementation independent of it.
 *
 * The data is raw (tokens and secrets included), held in memory only: judges describe tokens by
 * kind, never by value, and everything that leaves memory goes through the redactor.
 */
import { isMint, isPartnerRefresh, type ObservedRequest, pathOf } from '../../src/checks/observed-request.js';
import { PATHS } from '../../src/spec.js';

export type Profile = 'personal-token' | 'partner-key';

export const PROFILES: readonly Profile[] = ['personal-token', 'partner-key'];

/** How a run of the command ended. */
export type RunEnd = 'exited' | 'timed-out' | 'cut-off' | 'not-started';

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
