/**
 * Checks on the sign-in server's answers (spec §2, §3, §4.2; RFC 6749 §5): exchanges, refusals,
 * rotation, caching. Token values are never shown, only whether they are there.
 */
import type { Exchanged } from '../harness/clients/identity.js';
import { describeResponse } from './describe-response.js';
import { finding, type Finding } from './finding.js';
import type { HttpResponse } from '../harness/http.js';

export function errorOf(res: HttpResponse): string | undefined {
  const error = (res.json as { error?: unknown } | undefined)?.error;
  return typeof error === 'string' ? error : undefined;
}

export function isInvalidGrant(res: HttpResponse): boolean {
  return res.status === 400 && errorOf(res) === 'invalid_grant';
}

/** 400 with error invalid_grant (spec §3, §4.2, §7; RFC 6749 §5.2). */
export function invalidGrant(res: HttpResponse): Finding {
  return finding(isInvalidGrant(res), '400 invalid_grant', describeResponse(res));
}

export function isExchanged(result: Exchanged): boolean {
  return result.res.status === 200 && !!result.accessToken && !!result.refreshToken;
}

/** 200 with a non-empty access_token and refresh_token. */
export function exchanged(result: Exchanged): Finding {
  return finding(isExchanged(result), '200 with access_token and refresh_token', describeResponse(result.res));
}

/** 200 with a non-empty access_token (whatever else the answer holds: the exchange's own shape is SIGNIN-EXCHANGE's). */
export function accessTokenIssued(result: Exchanged): Finding {
  return finding(result.res.status === 200 && !!result.accessToken, '200 with an access_token', describeResponse(result.res));
}

/** The refresh_token returned is not the one sent (rotation). */
export function rotated(sent: string, result: Exchanged): Finding {
  const ok = result.refreshToken !== undefined && result.refreshToken !== sent;
  return finding(ok, 'a refresh_token different from the one sent', result.refreshToken === undefined ? 'no refresh_token' : 'the same refresh_token');
}

/** No 2xx and no access token: the sign-in server issued nothing. */
export function notExchanged(res: HttpResponse): Finding {
  const body = res.json as { access_token?: unknown } | undefined;
  const ok = res.status >= 400 && res.status <= 499 && typeof body?.access_token !== 'string';
  return finding(ok, 'a 4xx refusal without access_token', describeResponse(res));
}

/** Cache-Control carries no-store (RFC 6749 §5.1). */
export function noStore(res: HttpResponse): Finding {
  const value = res.headers['cache-control'] ?? '';
  const ok = value.split(',').some((d) => d.trim().toLowerCase() === 'no-store');
  return finding(ok, 'Cache-Control containing no-store', value === '' ? 'no Cache-Control header' : `Cache-Control: ${value}`);
}

/** A member that must be a non-empty string (a token: its value is never shown). */
export function nonEmptyString(body: Record<string, unknown>, member: string): Finding {
  const value = body[member];
  return finding(typeof value === 'string' && value !== '', 'a non-empty string', kindOf(value));
}

/** A member that must be exactly `expected` (a number is not its numeric string). */
export function memberIs(body: Record<string, unknown>, member: string, expected: number | string): Finding {
  const value = body[member];
  return finding(value === expected, `${JSON.stringify(expected)} (${typeof expected})`, shown(value));
}

/** token_type Bearer, in any letter case (RFC 6749 §5.1: case-insensitive). */
export function bearerTokenType(body: Record<string, unknown>): Finding {
  const value = body.token_type;
  return finding(typeof value === 'string' && value.toLowerCase() === 'bearer', 'Bearer (any letter case)', shown(value));
}

/** What a token member holds, without its value. */
function kindOf(value: unknown): string {
  if (value === undefined) return 'missing';
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a non-empty string';
  return `a ${value === null ? 'null' : typeof value}`;
}

/** A non-secret member, shown with its JSON type so "300" and 300 differ. */
function shown(value: unknown): string {
  if (value === undefined) return 'missing';
  return `${JSON.stringify(value)} (${value === null ? 'null' : typeof value})`;
}
