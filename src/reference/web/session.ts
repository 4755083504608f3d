/**
 * Who is signed in at a tenant host, and how the host signs a browser in (a confidential,
 * server-side OpenID Connect client of the sign-in server, PKCE S256 as well):
 *
 * - `tack_session` (signed, HttpOnly, SameSite=Lax, path /): the user and the tenant, 8 hours by the
 *   server's clock. Valid only at that tenant's host, for a member who is not disabled.
 * - `tack_login` (signed, HttpOnly, SameSite=Lax, path /account, 10 minutes): the state, the PKCE
 *   code_verifier and the page to return to, set when the browser is sent to sign in and read back
 *   (then deleted) by the callback. A newer sign-in in another tab replaces it.
 *
 * - `tack_generate` (the same, for Generate token on the server-side token page of the variant
 *   `token-page-server-side`).
 *
 * `redirectToSignIn` is step 1 of the contract's flow: 302 to `{identity}/protocol/openid-connect/auth`
 * with `client_id`, `redirect_uri={host}/account/callback`, `response_type=code`, `scope=openid`,
 * `state`, `code_challenge`, `code_challenge_method=S256`.
 */
import { createHash } from 'node:crypto';
import { HOUR, MINUTE } from '../clock.js';
import { identityUrl, type TenantContext, tenantUrl } from '../context.js';
import { clearCookie, readCookie, setCookie } from '../cookies.js';
import type { User } from '../directory.js';
import { sendRedirect } from '../html-pages.js';
import { randomSecret } from '../secrets.js';
import { open, seal, text } from '../signed.js';
import { ACCOUNT_PATH, CALLBACK_PATH, TOKEN_PAGE_PATH } from '../web-paths.js';

const SESSION_COOKIE = 'tack_session';
const LOGIN_COOKIE = 'tack_login';
const GENERATE_COOKIE = 'tack_generate';
const WEB_SESSION_MS = 8 * HOUR;
const LOGIN_MS = 10 * MINUTE;
/** The only pages a sign-in returns to (never a URL from the request). */
const RETURN_PATHS: readonly string[] = [ACCOUNT_PATH, TOKEN_PAGE_PATH];

interface PendingLogin {
  readonly state: string;
  readonly verifier: string;
  readonly returnTo: string;
}

export function currentUser(ctx: TenantContext): User | undefined {
  const { ref } = ctx;
  const payload = open(ref.mac, ref.clock, 'websess', readCookie(ctx.req, SESSION_COOKIE));
  if (payload === undefined || text(payload, 't') !== ctx.tenant.name) return undefined;
  const user = ref.directory.user(text(payload, 'u') ?? '');
  return user !== undefined && !user.disabled && ctx.tenant.members.has(user.id) ? user : undefined;
}

export function startSession(ctx: TenantContext, user: User): void {
  const value = seal(ctx.ref.mac, ctx.ref.clock, 'websess', { u: user.id, t: ctx.tenant.name }, WEB_SESSION_MS);
  setCookie(ctx.res, SESSION_COOKIE, value, { path: '/' });
}

export function callbackUrl(ctx: TenantContext): string {
  return tenantUrl(ctx.ref, ctx.tenant.name) + CALLBACK_PATH;
}

export function redirectToSignIn(ctx: TenantContext, returnTo: string): void {
  sendToAuthorization(ctx, LOGIN_COOKIE, { redirectUri: callbackUrl(ctx), returnTo, scope: 'openid' });
}

/**
 * Generate token on the server-side token page (variant `token-page-server-side`): the
 * re-authentication request, with `offline_access` (no API token without it), back to the token
 * page itself, whose server redeems the code (`takePendingGeneration`).
 */
export function redirectToGenerate(ctx: TenantContext, user: User): void {
  const redirectUri = tenantUrl(ctx.ref, ctx.tenant.name) + TOKEN_PAGE_PATH;
  const extra = { prompt: 'login', login_hint: user.email };
  sendToAuthorization(ctx, GENERATE_COOKIE, { redirectUri, returnTo: TOKEN_PAGE_PATH, scope: 'openid offline_access', extra });
}

interface AuthorizationStart {
  readonly redirectUri: string;
  readonly returnTo: string;
  readonly scope: string;
  readonly extra?: Record<string, string>;
}

function sendToAuthorization(ctx: TenantContext, cookie: string, start: AuthorizationStart): void {
  const { ref } = ctx;
  const state = randomSecret(24);
  const verifier = randomSecret(32);
  const login = seal(ref.mac, ref.clock, 'weblogin', { s: state, v: verifier, r: start.returnTo }, LOGIN_MS);
  setCookie(ctx.res, cookie, login, { path: ACCOUNT_PATH });
  const url = new URL(`${identityUrl(ref)}/protocol/openid-connect/auth`);
  url.search = new URLSearchParams({
    client_id: ref.config.clientId,
    redirect_uri: start.redirectUri,
    response_type: 'code',
    scope: start.scope,
    state,
    code_challenge: createHash('sha256').update(verifier, 'ascii').digest('base64url'),
    code_challenge_method: 'S256',
    ...start.extra,
  }).toString();
  sendRedirect(ctx.res, url.href);
}

/** The sign-in this browser started, read once: the cookie is deleted on the way. */
export function takePendingLogin(ctx: TenantContext): PendingLogin | undefined {
  return takePending(ctx, LOGIN_COOKIE);
}

/** The generation this browser started on the server-side token page, read once. */
export function takePendingGeneration(ctx: TenantContext): PendingLogin | undefined {
  return takePending(ctx, GENERATE_COOKIE);
}

function takePending(ctx: TenantContext, cookie: string): PendingLogin | undefined {
  const payload = open(ctx.ref.mac, ctx.ref.clock, 'weblogin', readCookie(ctx.req, cookie));
  clearCookie(ctx.res, cookie, ACCOUNT_PATH);
  const state = payload === undefined ? undefined : text(payload, 's');
  const verifier = payload === undefined ? undefined : text(payload, 'v');
  const returnTo = payload === undefined ? undefined : text(payload, 'r');
  if (state === undefined || verifier === undefined || returnTo === undefined) return undefined;
  return { state, verifier, returnTo: RETURN_PATHS.includes(returnTo) ? returnTo : ACCOUNT_PATH };
}
