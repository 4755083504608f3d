/**
 * The requests the load profiles send and how their answers are judged, as plain functions of
 * strings: they run for every request, so they build and parse as little as possible. This is the
 * one place load judges an exchange answer (`judgeExchange`): `tack load` and the Artillery
 * processor both run it, through the profiles' conversations.
 *
 * Judging follows the spec only (docs/spec/tenant-api-access.md):
 * - exchange 200: access_token and refresh_token non-empty strings, token_type Bearer (any case),
 *   expires_in exactly the integer 300 (§2 "integer seconds; 300", §8); 400 invalid_grant is the
 *   refusal of a dead token. (That the refresh_token differs from the one sent is the profile's
 *   check: only it knows what was sent.)
 * - search 200: items an array, pageIndex, pageSize and totalCount present (§2; their types are not
 *   fixed by the spec, so not checked); 401 is an expired access token;
 * - partner token answers: an access token (and for mint a refresh token) at the field the setup
 *   found, since the spec does not name them.
 */
import { getPath } from '../src/harness/clients/fields.js';
import type { LoadRequest } from '../src/load/engine/engine.js';
import type { PartnerWire } from '../src/load/profile.js';
import type { Endpoint } from '../src/load/engine/target.js';
import { ACCESS_TOKEN_S } from '../src/spec.js';

type ExchangeAnswer =
  | { readonly kind: 'rotated'; readonly refreshToken: string; readonly accessToken: string; readonly expiresIn: number }
  /** `refreshToken` is set when the body still carries one: the chain can go on with it. */
  | { readonly kind: 'malformed'; readonly detail: string; readonly refreshToken?: string }
  | { readonly kind: 'invalid_grant' }
  | { readonly kind: 'refused'; readonly error: string };

/** Why an exchange that returns the token it was sent fails (spec §2: a *replacement* refresh token). */
export const NOT_ROTATED = 'exchange 200 returned the refresh_token it was sent: rotation broken';

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

function record(json: unknown): Record<string, unknown> | undefined {
  return json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
}

export function exchangeRequest(identity: Endpoint, clientId: string, token: string): LoadRequest {
  return {
    kind: 'exchange',
    origin: identity,
    method: 'POST',
    path: `${identity.pathPrefix}/protocol/openid-connect/token`,
    headers: { host: identity.host, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: `grant_type=refresh_token&client_id=${encodeURIComponent(clientId)}&refresh_token=${encodeURIComponent(token)}`,
  };
}

export function judgeExchange(status: number, body: string): ExchangeAnswer {
  const json = record(parseJson(body));
  if (status === 200) {
    if (!json) return { kind: 'malformed', detail: 'exchange 200 body is not a JSON object' };
    const { access_token: access, refresh_token: refresh, token_type: type, expires_in: expiresIn } = json;
    if (typeof refresh !== 'string' || refresh === '') return { kind: 'malformed', detail: 'exchange 200 without refresh_token' };
    if (typeof access !== 'string' || access === '') return { kind: 'malformed', detail: 'exchange 200 without access_token', refreshToken: refresh };
    if (typeof type !== 'string' || type.toLowerCase() !== 'bearer')
      return { kind: 'malformed', detail: 'exchange 200 with token_type other than Bearer', refreshToken: refresh };
    if (expiresIn !== ACCESS_TOKEN_S) {
      const got = typeof expiresIn === 'number' ? String(expiresIn) : `${typeof expiresIn} ${JSON.stringify(expiresIn) ?? ''}`.trim();
      return { kind: 'malformed', detail: `exchange 200 with expires_in ${got}, not the integer ${ACCESS_TOKEN_S}`, refreshToken: refresh };
    }
    return { kind: 'rotated', refreshToken: refresh, accessToken: access, expiresIn };
  }
  const error = typeof json?.error === 'string' ? json.error : '';
  if (status === 400 && error === 'invalid_grant') return { kind: 'invalid_grant' };
  return { kind: 'refused', error: error || `status ${status}` };
}

export function searchRequest(tenant: Endpoint, accessToken: string): LoadRequest {
  return {
    kind: 'search',
    origin: tenant,
    method: 'GET',
    path: `${tenant.pathPrefix}/api/businesses/search`,
    headers: { host: tenant.host, authorization: `Bearer ${accessToken}`, accept: 'application/json' },
  };
}

/** undefined when the body is a search result; otherwise what is wrong with it. */
export function searchShapeProblem(body: string): string | undefined {
  const json = record(parseJson(body));
  if (!json) return 'search 200 body is not a JSON object';
  if (!Array.isArray(json.items)) return 'search 200 without an items array';
  for (const field of ['pageIndex', 'pageSize', 'totalCount']) if (json[field] === undefined) return `search 200 without ${field}`;
  return undefined;
}

export function partnerRequest(wire: PartnerWire, call: 'token' | 'refresh', json: unknown): LoadRequest {
  return {
    kind: call === 'token' ? 'mint' : 'refresh',
    origin: wire.tenant,
    method: 'POST',
    path: `${wire.tenant.pathPrefix}/api/admin/authentication/${call}`,
    headers: { host: wire.tenant.host, 'content-type': 'application/json', accept: 'application/json', ...wire.credentials },
    body: JSON.stringify(json),
  };
}

/** The tokens of a partner token answer, at the fields setup found. */
export function partnerTokens(wire: PartnerWire, body: string): { access: string | undefined; refresh: string | undefined } {
  const json = parseJson(body);
  const access = getPath(json, wire.accessField);
  const refresh = wire.refreshField === undefined ? undefined : getPath(json, wire.refreshField);
  return {
    access: typeof access === 'string' && access !== '' ? access : undefined,
    refresh: typeof refresh === 'string' && refresh !== '' ? refresh : undefined,
  };
}
