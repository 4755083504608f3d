/**
 * The sign-in server grants no cross-origin access to other sites (spec §4.2): no
 * `Access-Control-Allow-*` header for them, and an OPTIONS preflight is answered 405 like any other
 * method the endpoints do not take. Only the `cors-open` fault changes that, here.
 *
 * One exception, for the tenant hosts' own token page: the token endpoint's authorization_code
 * grant answers `Access-Control-Allow-Origin` with the caller's origin when (and only when) that
 * origin is exactly a tenant host of this server (`http://{tenant}.localhost:PORT`). The page's
 * script redeems the code of Generate token with a simple form POST, which needs no preflight. The
 * refresh_token grant, revoke and every other origin stay without any CORS header.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Reference, type RequestContext, tenantUrl } from '../context.js';
import { sendEmpty } from '../respond.js';

export function allowTenantOrigin(ctx: RequestContext): void {
  const origin = ctx.req.headers.origin;
  if (typeof origin !== 'string') return;
  for (const name of ctx.ref.directory.tenants.keys()) {
    if (origin === tenantUrl(ctx.ref, name)) {
      ctx.res.setHeader('access-control-allow-origin', origin);
      ctx.res.setHeader('vary', 'Origin');
      return;
    }
  }
}

export function applyCorsFault(ref: Reference, res: ServerResponse): void {
  if (ref.faults.has('cors-open')) res.setHeader('access-control-allow-origin', '*');
}

export function isPreflight(ref: Reference, method: string): boolean {
  return method === 'OPTIONS' && ref.faults.has('cors-open');
}

/** Fault `cors-open` only: grant whatever the preflight asks for. */
export function preflight(req: IncomingMessage, res: ServerResponse): void {
  const requested = req.headers['access-control-request-headers'];
  sendEmpty(res, 204, {
    'access-control-allow-methods': 'POST, OPTIONS',
    'access-control-allow-headers': typeof requested === 'string' ? requested : 'content-type',
    'access-control-max-age': '600',
  });
}
