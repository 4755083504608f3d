/** Lookups shared by the hook endpoints; each refuses with the hook's 404. */
import type { Reference, RequestContext } from '../context.js';
import type { Business, Tenant, User } from '../directory.js';
import { notFound } from '../errors.js';

export function tenantParam(ctx: RequestContext): Tenant {
  const tenant = ctx.ref.directory.tenant(ctx.params['tenant'] ?? '');
  if (tenant === undefined) throw notFound('unknown_tenant', 'No such tenant.');
  return tenant;
}

export function userParam(ref: Reference, email: string | undefined): User {
  const user = ref.directory.userByEmail(email ?? '');
  if (user === undefined) throw notFound('unknown_user', 'No such user.');
  return user;
}

export function businessParam(tenant: Tenant, id: string | undefined): Business {
  const business = tenant.businesses.get(id ?? '');
  if (business === undefined) throw notFound('unknown_business', 'No such business in this tenant.');
  return business;
}
