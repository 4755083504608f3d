/** PUT /tenants/{tenant}/features `{"apiTokens": true|false}`: 204; 404 unknown tenant. */
import { readJsonObject } from '../body.js';
import type { RequestContext } from '../context.js';
import { sendEmpty } from '../respond.js';
import { requiredBoolean } from '../validate.js';
import { tenantParam } from './lookup.js';

export async function setFeatures(ctx: RequestContext): Promise<void> {
  const tenant = tenantParam(ctx);
  const body = await readJsonObject(ctx.req);
  tenant.features.apiTokens = requiredBoolean(body, 'apiTokens');
  sendEmpty(ctx.res, 204);
}
