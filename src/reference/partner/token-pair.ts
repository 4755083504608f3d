/**
 * The partner token response, shared by mint and refresh:
 * `200 {"accessToken","refreshToken","tokenType":"Bearer","expiresIn":300}` with
 * `Cache-Control: no-store`. The access token is narrowed to the minting tenant (spec §4.1 rule 1:
 * the tenant is written into the signed token, so narrowing cannot fail) and names the user only,
 * so it carries the user's own permissions.
 */
import { ACCESS_TOKEN_SECONDS } from '../access-token.js';
import type { TenantContext } from '../context.js';
import { NO_STORE, sendJson } from '../respond.js';

interface PairOptions {
  /** Access-token lifetime to sign (300 unless a fault says otherwise). */
  readonly lifetimeSeconds?: number;
}

// PARTNER-USER-PERMISSIONS: the access token names the user only, never permissions: search reads the user's own.
export function answerTokenPair(ctx: TenantContext, userId: string, tenant: string, refreshToken: string, options: PairOptions = {}): void {
  const { faults, accessTokens } = ctx.ref;
  const narrowedTo = faults.has('partner-token-not-narrowed') ? null : tenant;
  const lifetime = options.lifetimeSeconds ?? (faults.has('access-token-lives-an-hour') ? 3600 : ACCESS_TOKEN_SECONDS);
  const snake = ctx.ref.config.dialect.partnerFields === 'snake';
  const body: Record<string, unknown> = {
    [snake ? 'access_token' : 'accessToken']: accessTokens.issue('partner', userId, narrowedTo, lifetime),
    [snake ? 'token_type' : 'tokenType']: 'Bearer',
    [snake ? 'expires_in' : 'expiresIn']: ACCESS_TOKEN_SECONDS,
  };
  if (!faults.has('partner-mint-omits-refresh-token')) body[snake ? 'refresh_token' : 'refreshToken'] = refreshToken;
  sendJson(ctx.res, 200, body, NO_STORE);
}
