/**
 * Bearer authentication of tenant API calls (RFC 6750):
 *
 * - no Authorization header, or another scheme: 401 with `WWW-Authenticate: Bearer realm="<tenant>"`;
 * - a token that does not verify, has expired (300 s by the injected clock), or names a user who
 *   is gone or disabled: 401 with `WWW-Authenticate: Bearer realm="<tenant>", error="invalid_token"`.
 *
 * Revoking an API token does not cut off the access tokens already exchanged for it (they are
 * self-contained and expire within 300 s); disabling a user does, at once.
 */
import type { AccessClaims } from '../access-token.js';
import type { TenantContext } from '../context.js';
import type { User } from '../directory.js';
import { unauthorized } from '../errors.js';

export interface Caller {
  readonly claims: AccessClaims;
  readonly user: User;
  /** The raw token (the key of the `permission-cached-per-token` fault's cache). */
  readonly token: string;
}

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** The caller, or undefined for an anonymous call that a fault lets through. */
// ACCESS-TOKEN-REQUIRED, ACCESS-WWW-AUTHENTICATE: no valid Bearer token, 401 with a Bearer challenge.
export function authenticate(ctx: TenantContext): Caller | undefined {
  const header = ctx.req.headers.authorization;
  const match = header === undefined ? null : BEARER.exec(header);
  const token = match?.[1];
  if (token === undefined) {
    if (ctx.ref.faults.has('access-token-not-required')) return undefined;
    throw refusal(ctx, 'missing_token', 'An access token is required: Authorization: Bearer <token>.', false);
  }
  const verdict = ctx.ref.accessTokens.verify(token);
  if (!verdict.ok) {
    if (verdict.reason === 'malformed' && ctx.ref.faults.has('access-token-not-required')) return undefined;
    throw refusal(ctx, 'invalid_token', verdict.reason === 'expired' ? 'The access token has expired.' : 'The access token is not valid.', true);
  }
  const user = ctx.ref.directory.user(verdict.claims.userId);
  if (user === undefined || user.disabled) throw refusal(ctx, 'invalid_token', 'The access token is not valid.', true);
  return { claims: verdict.claims, user, token };
}

/** Whether the request carries an access token that verifies and names a live user (no refusal is thrown). */
export function hasValidAccessToken(ctx: Pick<TenantContext, 'ref' | 'req'>): boolean {
  const token = BEARER.exec(ctx.req.headers.authorization ?? '')?.[1];
  if (token === undefined) return false;
  const verdict = ctx.ref.accessTokens.verify(token);
  if (!verdict.ok) return false;
  const user = ctx.ref.directory.user(verdict.claims.userId);
  return user !== undefined && !user.disabled;
}

function refusal(ctx: TenantContext, code: string, detail: string, invalidToken: boolean) {
  if (ctx.ref.faults.has('no-www-authenticate')) return unauthorized(code, detail);
  const realm = `Bearer realm="${ctx.tenant.name}"`;
  return unauthorized(code, detail, invalidToken ? `${realm}, error="invalid_token"` : realm);
}
