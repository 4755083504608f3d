/**
 * POST /api/admin/authentication/token `{"username"}`: mints an access token and a refresh token
 * for one user of the host's tenant (spec §4.1).
 *
 * A username that is not a member of this tenant (unknown anywhere, or a member of another tenant
 * only) is refused with 404 user_not_found and no token; the two cases read the same, so the
 * answer reveals nothing about other tenants. A disabled member is refused with 403 user_disabled.
 */
import type { TenantContext } from '../context.js';
import { forbidden, HttpError, notFound, unauthorized } from '../errors.js';
import { requiredString } from '../validate.js';
import { requirePartnerKey } from './credentials.js';
import { readPartnerJson } from './json-body.js';
import { answerTokenPair } from './token-pair.js';

/** User id carried by tokens minted for nobody (fault `partner-mint-non-member` only). */
const NOBODY = 'u0';

// PARTNER-MINT: a member of the host tenant gets an access and a refresh token (answerTokenPair).
export async function mintToken(ctx: TenantContext): Promise<void> {
  const key = requirePartnerKey(ctx, 'mint');
  const body = await readPartnerJson(ctx);
  const username = requiredString(body, 'username', 254);
  const userId = findMember(ctx, username);
  const refreshToken = ctx.ref.partnerTokens.issue({ userId, tenant: ctx.tenant.name, clientId: key.partner.clientId });
  answerTokenPair(ctx, userId, ctx.tenant.name, refreshToken);
}

// PARTNER-MINT-NON-MEMBER: a username that is not a member of this tenant gets no token (404, no body token).
function findMember(ctx: TenantContext, username: string): string {
  const user = ctx.ref.directory.member(ctx.tenant, username);
  if (user === undefined) {
    if (ctx.ref.faults.has('partner-mint-non-member')) return ctx.ref.directory.userByEmail(username)?.id ?? NOBODY;
    if (ctx.ref.faults.has('lenient-json-unknown-user-401')) throw unauthorized('user_not_found', 'No user with this e-mail address belongs to this tenant.');
    throw notFound('user_not_found', 'No user with this e-mail address belongs to this tenant.');
  }
  if (user.disabled) throw forbidden('user_disabled', 'This user is disabled.');
  // PARTNER-TENANT-NARROWING: the token is narrowed to this tenant (token-pair.ts), so minting for a user of several tenants is safe.
  if (user.tenants.size > 1 && ctx.ref.faults.has('partner-narrowing-fails-500')) throw new HttpError(500, 'server_error', 'The token could not be narrowed.');
  return user.id;
}
