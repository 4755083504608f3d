/**
 * A request a client under test sent (`tack client`), as recorded, with the answer it got; and how
 * to read one: its path, its body as JSON or a form, its bearer token, the tokens its answer
 * carried. The checks on requests (./request.ts, ./retry.ts, ./sequence.ts) and the client judges
 * (suites/client/) read requests through these and nothing else.
 *
 * The data is raw (tokens and secrets included), held in memory only: a finding describes tokens
 * by kind, never by value.
 */
import { PATHS } from '../spec.js';

/** Which of the host roles handed to the client a request went to. */
export type Role = 'tenant' | 'identity' | 'other';

interface ObservedResponse {
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
  /** The request target as sent: path and query, or in absolute form (read it with pathOf, originFormOf). */
  readonly target: string;
  /** Header names lower-case; a repeated header's values joined with ', '. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  /** Real time, ms since the epoch. */
  readonly at: number;
  readonly response: ObservedResponse | undefined;
}

/**
 * The target's path and query. A target in absolute form (`http://host:port/path?query`, RFC 9112
 * §3.2.2) gives the path and query after its authority, so every check reads the same path however it was sent.
 */
export function originFormOf(request: Pick<ObservedRequest, 'target'>): string {
  const authority = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(request.target);
  if (authority === null) return request.target;
  const rest = request.target.slice(authority[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

export function pathOf(request: Pick<ObservedRequest, 'target'>): string {
  const target = originFormOf(request);
  const q = target.indexOf('?');
  return q < 0 ? target : target.slice(0, q);
}

export function isMint(request: ObservedRequest): boolean {
  return pathOf(request).endsWith(PATHS.mint);
}

export function isPartnerRefresh(request: ObservedRequest): boolean {
  return pathOf(request).endsWith(PATHS.partnerRefresh);
}

/** A partner-key endpoint, wherever it was sent. */
export function isAdminCall(request: ObservedRequest): boolean {
  return pathOf(request).includes(PATHS.adminPrefix);
}

/**
 * A call of the tenant API that is not a partner-key endpoint: business search and the like. A web
 * page of the tenant host (`/account`: the spec's pages are not under `/api/`) is no API call: a
 * client that reads one between a 401 and its retry has not retried with it. Nor is a request the
 * server answered 404 (`/api/health`): there is no such endpoint, so it calls nothing the rules on
 * API calls speak of (a client whose work went there fails on its missing work instead).
 */
export function isApiCall(request: ObservedRequest): boolean {
  return request.role === 'tenant' && pathOf(request).startsWith(PATHS.apiPrefix) && !isAdminCall(request) && statusOf(request) !== 404;
}

export function isBusinessSearch(request: ObservedRequest): boolean {
  return request.role === 'tenant' && request.method === 'GET' && pathOf(request) === PATHS.search;
}

export function answered2xx(request: ObservedRequest): boolean {
  const status = request.response?.status ?? 0;
  return status >= 200 && status < 300;
}

export function statusOf(request: ObservedRequest): number | undefined {
  return request.response?.status;
}

export function jsonOf(text: string | undefined): unknown {
  // Stryker disable next-line ConditionalExpression,LogicalOperator,MethodExpression,StringLiteral: a shortcut; JSON.parse throws on these too.
  if (text === undefined || text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } /* Stryker disable next-line BlockStatement: an empty catch answers undefined too. */ catch {
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

/**
 * The body as a check searches it for a token: as sent and, when it parses as JSON (whatever its
 * content type, as the redactor reads it), written again, so escapes such as `\u0074` hide nothing.
 */
export function bodyTexts(request: ObservedRequest): string[] {
  if (request.body === undefined) return [];
  const json = jsonOf(request.body);
  return json === undefined ? [request.body] : [request.body, JSON.stringify(json)];
}

/**
 * The values of a request's parameters, each decoded once: its query's; its body's, every string in
 * a JSON body, every part of a multipart form, or else the body read as a form (whatever its content type).
 */
export function parameterValues(request: ObservedRequest): string[] {
  const target = originFormOf(request);
  const q = target.indexOf('?');
  const values = q < 0 ? [] : [...new URLSearchParams(target.slice(q + 1)).values()];
  const body = request.body;
  if (body === undefined) return values;
  const json = jsonOf(body);
  if (json !== undefined) return [...values, ...stringsIn(json)];
  const boundary = /^multipart\/form-data\b.*;\s*boundary="?([^";]+)"?/i.exec(request.headers['content-type'] ?? '')?.[1];
  if (boundary !== undefined) {
    const parts = body.split(`--${boundary}`).map((part) =>
      part
        .split(/\r?\n\r?\n/)
        .slice(1)
        .join('\n\n')
        .replace(/\r?\n$/, ''),
    );
    return [...values, ...parts.filter((part) => part !== '')];
  }
  return [...values, ...new URLSearchParams(body).values()];
}

function stringsIn(json: unknown): string[] {
  if (typeof json === 'string') return [json];
  if (json === null || typeof json !== 'object') return [];
  return Object.values(json).flatMap(stringsIn);
}

/** The token of `Authorization: Bearer <token>` (scheme in any case); undefined otherwise. */
export function bearerOf(request: ObservedRequest): string | undefined {
  // Stryker disable next-line StringLiteral: no header reads as any other text that is not Bearer.
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
  // Stryker disable next-line OptionalChaining: answered2xx saw the response.
  return answered2xx(request) ? member(jsonOf(request.response?.body), ACCESS_NAMES) : undefined;
}

/** The refresh token (API token or partner refresh token) a renewal's 2xx answer carries. */
export function refreshTokenIssued(request: ObservedRequest): string | undefined {
  // Stryker disable next-line OptionalChaining: answered2xx saw the response.
  return answered2xx(request) ? member(jsonOf(request.response?.body), REFRESH_NAMES) : undefined;
}

/** An exchange answered 400 with error invalid_grant. */
export function isInvalidGrant(request: ObservedRequest): boolean {
  return request.response?.status === 400 && member(jsonOf(request.response.body), ['error']) === 'invalid_grant';
}

// ── Time: a client may send requests in parallel, so arrival order alone does not say what came first ──

/**
 * `a` was over before `b` began: it arrived first and was answered no later than `b` arrived. A
 * client that sent `b` could have read `a`'s answer first. (Times are whole milliseconds: a tie
 * counts as before, so a client that waits for each answer is never taken for a parallel one.)
 */
export function settledBefore(a: ObservedRequest, b: ObservedRequest): boolean {
  return a.seq < b.seq && a.response !== undefined && a.response.at <= b.at;
}

/** `a` and `b` were in flight at the same time: neither was over before the other began. */
export function inFlightTogether(a: ObservedRequest, b: ObservedRequest): boolean {
  return a !== b && !settledBefore(a, b) && !settledBefore(b, a);
}

/** `#12 POST /realms/payroll/protocol/openid-connect/token → 200`: a request named without its secrets. */
export function describeRequest(request: ObservedRequest): string {
  return `#${request.seq} ${request.method} ${pathOf(request)}${request.response ? ` → ${request.response.status}` : ''}`;
}
