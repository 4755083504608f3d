/**
 * POST /tenants/{tenant}/businesses `{"name","registrationNumber"}`: 201 `{"id"}`.
 * PUT /tenants/{tenant}/businesses/{id}/access/{email} `{"access":"read"|"none"}`: 204; 404 for an
 * unknown tenant, business (of that tenant) or user. Access may be granted to a user of another
 * tenant; search still refuses a non-member (403). It takes effect on the next API request.
 */
import { readJsonObject } from '../body.js';
import type { RequestContext } from '../context.js';
import { sendEmpty, sendJson } from '../respond.js';
import { requiredChoice, requiredString } from '../validate.js';
import { businessParam, tenantParam, userParam } from './lookup.js';

export async function createBusiness(ctx: RequestContext): Promise<void> {
  const tenant = tenantParam(ctx);
  const body = await readJsonObject(ctx.req);
  const name = requiredString(body, 'name');
  const registrationNumber = requiredString(body, 'registrationNumber', 64);
  const business = ctx.ref.directory.createBusiness(tenant, name, registrationNumber);
  sendJson(ctx.res, 201, { id: business.id });
}

export async function setAccess(ctx: RequestContext): Promise<void> {
  const tenant = tenantParam(ctx);
  const business = businessParam(tenant, ctx.params['id']);
  const user = userParam(ctx.ref, ctx.params['email']);
  const body = await readJsonObject(ctx.req);
  const access = requiredChoice(body, 'access', ['read', 'none']);
  ctx.ref.directory.setAccess(business, user, access);
  sendEmpty(ctx.res, 204);
}
