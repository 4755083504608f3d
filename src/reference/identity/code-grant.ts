/**
 * The token endpoint's `grant_type=authorization_code` (RFC 6749 §4.1.3, RFC 7636 §4.6): redeems
 * a code of the sign-in pages. Form: `code`, `redirect_uri`, `client_id`, `code_verifier`.
 *
 * Steps: allowTenantOrigin (CORS for the tenant hosts' own pages, this grant only), redeemCode
 * (one-time; unknown, used, expired, another client's, another redirect_uri's or a wrong
 * code_verifier: 400 invalid_grant, and the code is gone either way), activeUser, apiTokenFor,
 * answer `{"access_token","expires_in":300,"token_type":"Bearer","scope":"openid"[,"refresh_token"]}`.
 *
 * The refresh_token is present only for a code from a re-authentication (`prompt=login`, password
 * typed) whose authorization request asked for `offline_access` (as Keycloak issues an offline token
 * only then): it IS the personal API token, issued by the same step as the hook's api-tokens endpoint
 * (same store, same rotation, same 30/90-day limits), and only where that step allows one (a direct
 * user, a member of the redirect_uri's tenant, the tenant's feature on, not disabled). Any other
 * code answers without one. The tenant host's own sign-in callback redeems its codes in-process
 * with `redeemCode`, through the same checks, and so does the token page where it redeems on its
 * server (variant `token-page-server-side`, `apiTokenOfCode`).
 */
import { createHash } from 'node:crypto';
import type { Reference, RequestContext } from '../context.js';
import type { Tenant, User } from '../directory.js';
import { badRequest, type HttpError, isHttpError } from '../errors.js';
import { generateApiToken } from '../hook/api-tokens.js';
import { NO_STORE, sendJson } from '../respond.js';
import { safeEqual } from '../secrets.js';
import type { CodeGrant } from './codes.js';
import { allowTenantOrigin } from './cors.js';
import { type Form, param } from './form-body.js';

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

interface PresentedCode {
  readonly code: string;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly verifier: string;
}

export function exchangeCode(ctx: RequestContext, form: Form): void {
  allowTenantOrigin(ctx);
  const grant = redeemCode(ctx.ref, {
    code: param(form, 'code'),
    clientId: form.get('client_id') ?? '',
    redirectUri: param(form, 'redirect_uri'),
    verifier: param(form, 'code_verifier'),
  });
  const user = activeUser(ctx.ref, grant);
  answer(ctx, user, grant, apiTokenFor(ctx.ref, grant, user));
}

/** The personal API token a code yields, redeemed in-process (the server-side token page); throws as the token endpoint refuses. */
export function apiTokenOfCode(ref: Reference, presented: PresentedCode): string | undefined {
  const grant = redeemCode(ref, presented);
  return apiTokenFor(ref, grant, activeUser(ref, grant));
}

function invalidCode(): HttpError {
  return badRequest('invalid_grant', 'The code is not valid, was used already, has expired, or does not match this request.');
}

/** The grant of a presented code, which is used up by the call, whatever the outcome. */
export function redeemCode(ref: Reference, presented: PresentedCode): CodeGrant {
  const grant = ref.codes.take(presented.code);
  if (grant === undefined || grant.clientId !== presented.clientId || grant.redirectUri !== presented.redirectUri) throw invalidCode();
  if (!VERIFIER.test(presented.verifier)) throw invalidCode();
  const challenge = createHash('sha256').update(presented.verifier, 'ascii').digest('base64url');
  if (!safeEqual(challenge, grant.challenge)) throw invalidCode();
  return grant;
}

export function activeUser(ref: Reference, grant: CodeGrant): User {
  const user = ref.directory.user(grant.userId);
  if (user === undefined || user.disabled) throw invalidCode();
  return user;
}

/** The personal API token of a re-authentication's code, or undefined (other codes, feature off, ...). */
function apiTokenFor(ref: Reference, grant: CodeGrant, user: User): string | undefined {
  // TOKEN-PAGE-REAUTH: only a code from a sign-in that typed the password at prompt=login.
  if (!grant.reauthenticated) return undefined;
  // TOKEN-PAGE-NO-TOKEN: a long-lived token only where the authorization request asked for offline_access.
  if (!grant.offlineAccess && !ref.faults.has('token-page-offline-access-ignored')) return undefined;
  const tenant = ref.directory.tenant(grant.tenant);
  if (tenant === undefined) return undefined;
  // TOKEN-PAGE-OWNER: the token is the signed-in user's own.
  const owner = ref.faults.has('token-page-other-user') ? (anotherDirectUser(ref, tenant, user) ?? user) : user;
  try {
    return generateApiToken(ref, tenant, owner.email);
  } catch (error) {
    if (isHttpError(error)) return undefined;
    throw error;
  }
}

/** Fault `token-page-other-user`: the first other direct, enabled member of the tenant. */
function anotherDirectUser(ref: Reference, tenant: Tenant, user: User): User | undefined {
  for (const id of tenant.members) {
    const other = ref.directory.user(id);
    if (other !== undefined && other.id !== user.id && other.signIn === 'direct' && !other.disabled) return other;
  }
  return undefined;
}

function answer(ctx: RequestContext, user: User, grant: CodeGrant, apiToken: string | undefined): void {
  const body: Record<string, unknown> = {
    access_token: ctx.ref.accessTokens.issue('signin', user.id, null),
    expires_in: 300,
    token_type: 'Bearer',
    scope: grant.offlineAccess ? 'openid offline_access' : 'openid',
  };
  if (apiToken !== undefined) body['refresh_token'] = apiToken;
  sendJson(ctx.res, 200, body, NO_STORE);
}
