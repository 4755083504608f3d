/**
 * What `tack client` observed of a client under test, as plain data: per scenario, each run of the
 * command (exit code, stdout, stderr, how it ended) and every request it sent, with the answer it
 * got. The judges (this folder) decide verdicts from this data alone: they never see the server
 * that answered, so the client rules are judged by an implementation independent of it.
 *
 * The data is raw (tokens and secrets included), held in memory only: judges describe tokens by
 * kind, never by value, and everything that leaves memory goes through the redactor.
 */

export type Profile = 'personal-token' | 'partner-key';

export const PROFILES: readonly Profile[] = ['personal-token', 'partner-key'];

/** Which of the host roles handed to the client a request went to. */
export type Role = 'tenant' | 'identity' | 'other';

export interface ObservedResponse {
  readonly status: number;
  /** Header names lower-case. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** Real time, ms since the epoch. */
  readonly at: number;
}

export interface ObservedRequest {
  /** Transcript sequence number: how reports point at the request. */
  readonly seq: number;
  /** The run (1-based) of the scenario it arrived during. */
  readonly run: number;
  readonly role: Role;
  readonly method: string;
  /** The request target as sent: path and query. */
  readonly target: string;
  /** Header names lower-case; a repeated header's values joined with ', '. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  /** Real time, ms since the epoch. */
  readonly at: number;
  readonly response: ObservedResponse | undefined;
}

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

// ── Reading requests: the judges' own understanding of the spec's endpoints ─────────────────────

const EXCHANGE_PATH = '/protocol/openid-connect/token';
const REVOKE_PATH = '/protocol/openid-connect/revoke';
const MINT_PATH = '/api/admin/authentication/token';
const REFRESH_PATH = '/api/admin/authentication/refresh';
const ADMIN_PREFIX = '/api/admin/';

export function pathOf(request: Pick<ObservedRequest, 'target'>): string {
  const q = request.target.indexOf('?');
  return q < 0 ? request.target : request.target.slice(0, q);
}

/** The exchange endpoint's path for these settings (`/realms/payroll/protocol/openid-connect/token`). */
export function exchangePath(settings: ScenarioSettings): string {
  return settings.identityPath + EXCHANGE_PATH;
}

/** Any POST to the sign-in server that is not a revocation: an attempt to exchange, well-formed or not. */
export function isExchange(request: ObservedRequest, settings: ScenarioSettings): boolean {
  return request.role === 'identity' && request.method === 'POST' && pathOf(request) !== settings.identityPath + REVOKE_PATH;
}

export function isMint(request: ObservedRequest): boolean {
  return pathOf(request).endsWith(MINT_PATH);
}

export function isPartnerRefresh(request: ObservedRequest): boolean {
  return pathOf(request).endsWith(REFRESH_PATH);
}

/** A partner-key endpoint, wherever it was sent. */
export function isAdminCall(request: ObservedRequest): boolean {
  return pathOf(request).includes(ADMIN_PREFIX);
}

/** A call of the tenant API that is not a partner-key endpoint: business search and the like. */
export function isApiCall(request: ObservedRequest): boolean {
  return request.role === 'tenant' && !isAdminCall(request);
}

export function isBusinessSearch(request: ObservedRequest): boolean {
  return request.role === 'tenant' && request.method === 'GET' && pathOf(request) === '/api/businesses/search';
}

/** An attempt to get a new access token: an exchange, a partner mint or a partner refresh. */
export function isRenewal(request: ObservedRequest, settings: ScenarioSettings): boolean {
  return isExchange(request, settings) || isMint(request) || isPartnerRefresh(request);
}

export function answered2xx(request: ObservedRequest): boolean {
  const status = request.response?.status;
  return status !== undefined && status >= 200 && status < 300;
}

export function statusOf(request: ObservedRequest): number | undefined {
  return request.response?.status;
}

export function jsonOf(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function mediaTypeOf(request: ObservedRequest): string {
  return (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** The form fields of a request whose body is form-encoded; undefined otherwise. */
export function formOf(request: ObservedRequest): URLSearchParams | undefined {
  if (mediaTypeOf(request) !== 'application/x-www-form-urlencoded' || request.body === undefined) return undefined;
  return new URLSearchParams(request.body);
}

/** The token of `Authorization: Bearer <token>` (scheme in any case); undefined otherwise. */
export function bearerOf(request: ObservedRequest): string | undefined {
  const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(request.headers['authorization'] ?? '');
  return match?.[1];
}

/** A string member of a JSON object body, looked up by any of `names`. */
export function member(body: unknown, names: readonly string[]): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  for (const name of names) {
    const value = (body as Record<string, unknown>)[name];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

const ACCESS_NAMES = ['access_token', 'accessToken'];
const REFRESH_NAMES = ['refresh_token', 'refreshToken'];

/** The access token a renewal's 2xx answer carries. */
export function accessTokenIssued(request: ObservedRequest): string | undefined {
  return answered2xx(request) ? member(jsonOf(request.response?.body), ACCESS_NAMES) : undefined;
}

/** The refresh token (API token or partner refresh token) a renewal's 2xx answer carries. */
export function refreshTokenIssued(request: ObservedRequest): string | undefined {
  return answered2xx(request) ? member(jsonOf(request.response?.body), REFRESH_NAMES) : undefined;
}

/** An exchange answered 400 with error invalid_grant. */
export function isInvalidGrant(request: ObservedRequest): boolean {
  return request.response?.status === 400 && member(jsonOf(request.response.body), ['error']) === 'invalid_grant';
}

/** Every request of the scenario, in the order they arrived. */
export function requestsOf(scenario: ScenarioEvidence): ObservedRequest[] {
  return scenario.runs.flatMap((run) => run.requests);
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** `#12 POST /realms/payroll/protocol/openid-connect/token → 200`: a request named without its secrets. */
export function describe(request: ObservedRequest): string {
  return `#${request.seq} ${request.method} ${pathOf(request)}${request.response ? ` → ${request.response.status}` : ''}`;
}
