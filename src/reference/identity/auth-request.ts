/**
 * The authorization request of the sign-in pages (OpenID Connect Core §3.1.2, RFC 7636) and what
 * becomes of it: read and checked once at the authorization endpoint, carried through the sign-in
 * form as one signed hidden field (30 minutes; nothing stored), and finished by redirecting the
 * browser back to the client with a code or an error.
 *
 * Checks, in order (`readAuthRequest`): each parameter at most once, and a known `client_id` and a
 * registered `redirect_uri` (otherwise the browser is NOT sent back: RFC 6749 §4.1.2.1, an HTML 400
 * page); then, answered by redirect with `error`: `response_type=code` (unsupported_response_type),
 * `scope` containing `openid` (invalid_scope), `state` present (invalid_request; 1-512 printable
 * ASCII characters), `code_challenge` (43 base64url characters) with `code_challenge_method=S256`
 * (invalid_request: PKCE S256 is required, `plain` is refused), `prompt` absent, `login` or `none`.
 * A `scope` with `offline_access` asks for a long-lived token (Keycloak's offline token): only such a
 * request's code can yield a personal API token (code-grant.ts).
 */
import { MINUTE } from '../clock.js';
import { issuerOf, type RequestContext } from '../context.js';
import type { User } from '../directory.js';
import { badRequest } from '../errors.js';
import { sendRedirect } from '../html-pages.js';
import { open, seal, text } from '../signed.js';
import { registeredRedirect } from './clients.js';

export interface AuthRequest {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly state: string;
  readonly challenge: string;
  readonly prompt: 'login' | 'none' | '';
  /** The user name to fill in (`login_hint`), or ''. */
  readonly loginHint: string;
  /** The tenant whose host the redirect_uri is on. */
  readonly tenant: string;
  /** Re-authentication: the id of the signed-in user the form shows (asks their password only), or ''. */
  readonly userId: string;
  /** The scope asked for `offline_access`. */
  readonly offlineAccess: boolean;
}

/** A request that cannot be redirected back (bad client or redirect_uri): answered with a page. */
type Checked =
  | { readonly ok: true; readonly request: AuthRequest }
  | { readonly ok: false; readonly redirectUri: string; readonly state: string; readonly error: string; readonly description: string };

const REQUEST_LIFETIME_MS = 30 * MINUTE;
const STATE = /^[\x20-\x7e]{1,512}$/;
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function readAuthRequest(ctx: RequestContext): Checked {
  const params = readParams(ctx.query);
  const get = (name: string): string => params.get(name) ?? '';
  if (get('client_id') !== ctx.ref.config.clientId) throw badRequest('invalid_client', 'The client is not known to this realm.');
  const redirectUri = get('redirect_uri');
  const tenant = registeredRedirect(ctx.ref, redirectUri);
  if (tenant === undefined) throw badRequest('invalid_redirect_uri', 'The redirect_uri is not registered for this client.');
  const state = STATE.test(get('state')) ? get('state') : '';
  const refuse = (error: string, description: string): Checked => ({ ok: false, redirectUri, state, error, description });
  if (get('response_type') !== 'code') return refuse('unsupported_response_type', 'Only response_type=code is supported.');
  if (!get('scope').split(' ').includes('openid')) return refuse('invalid_scope', 'The scope must include openid.');
  if (state === '') return refuse('invalid_request', 'A state of 1 to 512 printable characters is required.');
  if (!CHALLENGE.test(get('code_challenge')) || get('code_challenge_method') !== 'S256') {
    return refuse('invalid_request', 'PKCE is required: code_challenge with code_challenge_method=S256.');
  }
  const prompt = get('prompt');
  if (prompt !== '' && prompt !== 'login' && prompt !== 'none') return refuse('invalid_request', 'prompt may be login or none.');
  const loginHint = get('login_hint').length <= 254 ? get('login_hint') : '';
  const offlineAccess = get('scope').split(' ').includes('offline_access');
  const request: AuthRequest = {
    clientId: get('client_id'),
    redirectUri,
    state,
    challenge: get('code_challenge'),
    prompt,
    loginHint,
    tenant,
    userId: '',
    offlineAccess,
  };
  return { ok: true, request };
}

/** The query, each parameter at most once (OpenID Connect Core §3.1.2.1); otherwise a 400. */
export function readParams(query: string): URLSearchParams {
  const params = new URLSearchParams(query);
  const seen = new Set<string>();
  for (const name of params.keys()) {
    if (seen.has(name)) throw badRequest('invalid_request', 'A parameter is given more than once.');
    seen.add(name);
  }
  return params;
}

/** The signed hidden field that carries the request through the sign-in form. */
export function sealRequest(ctx: RequestContext, request: AuthRequest): string {
  const { clientId: c, redirectUri: r, state: s, challenge: ch, prompt: p, loginHint: h, tenant: t, userId: u } = request;
  const o = request.offlineAccess ? '1' : '';
  return seal(ctx.ref.mac, ctx.ref.clock, 'authreq', { c, r, s, ch, p, h, t, u, o }, REQUEST_LIFETIME_MS);
}

/** The request of a submitted sign-in form; an expired or forged one is a 400 page. */
export function openRequest(ctx: RequestContext, field: string | undefined): AuthRequest {
  const payload = open(ctx.ref.mac, ctx.ref.clock, 'authreq', field);
  const get = (name: string): string => (payload === undefined ? '' : (text(payload, name) ?? ''));
  const prompt = get('p');
  if (payload === undefined || (prompt !== '' && prompt !== 'login' && prompt !== 'none')) {
    throw badRequest('expired_sign_in', 'This sign-in form has expired. Go back to the application and start again.');
  }
  const common = { clientId: get('c'), redirectUri: get('r'), state: get('s'), challenge: get('ch'), loginHint: get('h'), tenant: get('t') };
  return { ...common, prompt, userId: get('u'), offlineAccess: get('o') === '1' };
}

/** Sends the browser back to the client with `params`, plus `state` and `iss` (RFC 9207). */
export function redirectBack(ctx: RequestContext, redirectUri: string, state: string, params: Record<string, string>): void {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  if (state !== '') url.searchParams.set('state', state);
  url.searchParams.set('iss', issuerOf(ctx));
  sendRedirect(ctx.res, url.href);
}

/** The sign-in is complete: a one-time code for `user`, bound to this request, goes back to the client. */
export function completeSignIn(ctx: RequestContext, request: AuthRequest, user: User, reauthenticated: boolean): void {
  const code = ctx.ref.codes.issue({
    userId: user.id,
    clientId: request.clientId,
    redirectUri: request.redirectUri,
    challenge: request.challenge,
    tenant: request.tenant,
    reauthenticated,
    offlineAccess: request.offlineAccess,
  });
  redirectBack(ctx, request.redirectUri, request.state, { code });
}
