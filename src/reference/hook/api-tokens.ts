/**
 * POST /tenants/{tenant}/users/{email}/api-tokens `{}`: 201 `{"apiToken"}`, exactly what the
 * Generate-token page hands a user after password re-entry (spec §1, §3).
 *
 * Steps, in order: the tenant exists and the user is a member (404), the tenant's API-token feature
 * is on (403 feature_disabled), the user signs in directly (403 not_direct), the user is not
 * disabled (403 user_disabled: a disabled user cannot sign in to generate one). The same steps back
 * `ReferenceServer.issueApiToken`.
 */
import { readJsonObject } from '../body.js';
import type { Reference, RequestContext } from '../context.js';
import type { Tenant } from '../directory.js';
import { forbidden, notFound } from '../errors.js';
import { sendJson } from '../respond.js';
import { tenantParam } from './lookup.js';

export async function generateApiTokenEndpoint(ctx: RequestContext): Promise<void> {
  const tenant = tenantParam(ctx);
  await readJsonObject(ctx.req, { allowEmpty: true });
  const apiToken = generateApiToken(ctx.ref, tenant, ctx.params['email'] ?? '');
  sendJson(ctx.res, 201, { apiToken });
}

// SIGNIN-FEATURE-GATE, SIGNIN-DIRECT-ONLY: a token only where the feature is on, only for a user who signs in directly.
export function generateApiToken(ref: Reference, tenant: Tenant, email: string): string {
  const user = ref.directory.member(tenant, email);
  if (user === undefined) throw notFound('unknown_user', 'No such user in this tenant.');
  if (!tenant.features.apiTokens && !ref.faults.has('feature-flag-ignored')) {
    throw forbidden('feature_disabled', 'The API-token feature is off for this tenant.');
  }
  if (user.signIn !== 'direct' && !ref.faults.has('embedded-user-gets-token')) {
    throw forbidden('not_direct', "This user signs in through a partner's embedded app.");
  }
  if (user.disabled) throw forbidden('user_disabled', 'This user is disabled.');
  return ref.apiTokens.issue({ userId: user.id, tenant: tenant.name, clientId: null });
}
