/**
 * SIGNIN-NO-CORS: the sign-in server grants no cross-origin access to other sites (spec §4.2): no
 * `Access-Control-Allow-*` header for them, and an OPTIONS preflight is answered 405 like any other
 * method the endpoints do not take.
 *
 * One exception, for the tenant hosts' own token page: the token endpoint's authorization_code
 * grant answers `Access-Control-Allow-Origin` with the caller's origin when (and only when) that
 * origin is exactly a tenant host of this server (`http://{tenant}.localhost:PORT`). The page's
 * script redeems the code of Generate token with a simple form POST, which needs no preflight. The
 * refresh_token grant, revoke and every other origin stay without any CORS header.
 *
 * Only these change that:
 * - fault `cors-open`: `Access-Control-Allow-Origin: *` everywhere and every preflight granted;
 * - fault `cors-on-success-only`: a successful exchange answers `Access-Control-Allow-Origin` with
 *   whatever origin asks (errors, and so never-issued tokens, get none);
 * - variant `cors-preflight-granted-request-refused` (conformant, as oidc-provider): a preflight is
 *   granted for the origin asking, but a request from another site itself is refused with 400
 *   invalid_request and no Access-Control-Allow-Origin.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Reference, type RequestContext, tenantUrl } from '../context.js';
import { badRequest } from '../errors.js';
import { sendEmpty } from '../respond.js';

function isTenantOrigin(ref: Reference, origin: string): boolean {
  for (const name of ref.directory.tenants.keys()) if (origin === tenantUrl(ref, name)) return true;
  return false;
}

export function allowTenantOrigin(ctx: RequestContext): void {
  const origin = ctx.req.headers.origin;
  if (typeof origin !== 'string' || !isTenantOrigin(ctx.ref, origin)) return;
  ctx.res.setHeader('access-control-allow-origin', origin);
  ctx.res.setHeader('vary', 'Origin');
}

/** Fault `cors-on-success-only`: the caller's origin, whatever it is, may read this answer. */
export function allowAnyOrigin(ctx: RequestContext): void {
  const origin = ctx.req.headers.origin;
  if (typeof origin === 'string') ctx.res.setHeader('access-control-allow-origin', origin);
}

export function applyCorsFault(ref: Reference, res: ServerResponse): void {
  if (ref.faults.has('cors-open')) res.setHeader('access-control-allow-origin', '*');
}

export function isPreflight(ref: Reference, method: string): boolean {
  return method === 'OPTIONS' && (ref.faults.has('cors-open') || ref.faults.has('cors-preflight-granted-request-refused'));
}

/** Grant whatever the preflight asks for (fault or variant only). */
export function preflight(ref: Reference, req: IncomingMessage, res: ServerResponse): void {
  const requested = req.headers['access-control-request-headers'];
  const origin = typeof req.headers.origin === 'string' ? req.headers.origin : '*';
  sendEmpty(res, 204, {
    ...(ref.faults.has('cors-open') ? {} : { 'access-control-allow-origin': origin }),
    'access-control-allow-methods': 'POST, OPTIONS',
    'access-control-allow-headers': typeof requested === 'string' ? requested : 'content-type',
    'access-control-max-age': '600',
  });
}

/** Variant `cors-preflight-granted-request-refused`: a request from another site's page is refused. */
export function refuseCrossOrigin(ref: Reference, req: IncomingMessage): void {
  const origin = req.headers.origin;
  if (ref.faults.has('cors-preflight-granted-request-refused') && typeof origin === 'string' && !isTenantOrigin(ref, origin)) {
    throw badRequest('invalid_request', 'Requests from web pages of other sites are not allowed for this client.');
  }
}
