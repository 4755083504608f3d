/**
 * POST /api/admin/authentication/refresh `{"refreshToken"}`: new tokens for the same user (spec §4.1
 * rule 2). The refresh token is bound to the tenant and the client id that minted it; it is redeemed
 * only with that key at that tenant's host, and rotates like an API token (the old one is deleted).
 *
 * Refusals: 401 missing_credentials / invalid_credentials (the key), 401 invalid_refresh_token for a
 * refresh token that is unknown, rotated out, expired, of another tenant or key, or whose user has
 * since left the tenant or been disabled. A refused attempt never consumes the token.
 */
import type { TenantContext } from '../context.js';
import type { Tenant } from '../directory.js';
import { HttpError, unauthorized } from '../errors.js';
import type { Grant } from '../token-store.js';
import { storeRound } from '../store-delay.js';
import { requiredString } from '../validate.js';
import { hasCredentialHeaders, requirePartnerKey } from './credentials.js';
import { readPartnerJson } from './json-body.js';
import { answerTokenPair } from './token-pair.js';

// PARTNER-REFRESH: the same key at the same host redeems the refresh token for new tokens.
export async function refreshToken(ctx: TenantContext): Promise<void> {
  const key = checkKeyUnlessFaulty(ctx);
  const body = await readPartnerJson(ctx);
  const presented = requiredString(body, 'refreshToken', 512);
  if (ctx.ref.storeDelayMs > 0) await storeRound(ctx.ref);
  const grant = loadGrant(ctx, presented);
  checkBinding(ctx, grant, key ?? ctx.tenant);
  checkUser(ctx, grant);
  const next = ctx.ref.partnerTokens.rotate(presented);
  if (next === undefined) throw invalidRefreshToken();
  const lifetimeSeconds = ctx.ref.faults.has('partner-refresh-issues-expired-token') ? 0 : undefined;
  answerTokenPair(ctx, grant.userId, grant.tenant, next, lifetimeSeconds === undefined ? {} : { lifetimeSeconds });
}

/** The key is required, except under the fault that accepts a refresh token alone. */
// PARTNER-REFRESH-NEEDS-KEY: a refresh token alone is not enough; the key is checked first.
function checkKeyUnlessFaulty(ctx: TenantContext): Tenant | undefined {
  if (ctx.ref.faults.has('partner-refresh-without-headers') && !hasCredentialHeaders(ctx)) return undefined;
  return requirePartnerKey(ctx, 'refresh');
}

function invalidRefreshToken() {
  return unauthorized('invalid_refresh_token', 'The refresh token is not valid for this tenant and key.');
}

// PARTNER-NO-SERVER-ERROR: a refresh token never issued is refused (401 invalid_refresh_token), not a failure.
function loadGrant(ctx: TenantContext, presented: string): Grant {
  const grant = ctx.ref.partnerTokens.find(presented);
  if (grant === undefined && ctx.ref.faults.has('partner-refresh-unknown-token-500') && !ctx.ref.partnerTokens.recognises(presented)) {
    throw new HttpError(500, 'server_error', 'The refresh token could not be read.');
  }
  if (grant === undefined && !ctx.ref.partnerTokens.recognises(presented)) {
    if (ctx.ref.faults.has('partner-refresh-unknown-token-503')) throw new HttpError(503, 'server_error', 'The token store is unavailable.');
    if (ctx.ref.faults.has('partner-refresh-unknown-token-503-retry-forever')) {
      throw new HttpError(503, 'server_error', 'The token store is unavailable.', { headers: { 'retry-after': '0' } });
    }
  }
  if (grant === undefined) throw invalidRefreshToken();
  return grant;
}

/** Same tenant host and same key as the mint (spec §4.1 rule 2). */
// PARTNER-REFRESH-CROSS-TENANT: a refresh token is redeemed only at the tenant and with the key that minted it.
function checkBinding(ctx: TenantContext, grant: Grant, keyTenant: Tenant): void {
  if (ctx.ref.faults.has('partner-refresh-cross-tenant')) return;
  if (grant.tenant !== ctx.tenant.name || grant.clientId !== keyTenant.partner.clientId) throw invalidRefreshToken();
}

function checkUser(ctx: TenantContext, grant: Grant): void {
  const user = ctx.ref.directory.user(grant.userId);
  if (ctx.ref.faults.has('partner-mint-non-member')) return;
  if (user === undefined || user.disabled || !user.tenants.has(grant.tenant)) throw invalidRefreshToken();
}
