/**
 * SIGNIN-NO-CORS: the sign-in server grants no cross-origin access (spec §4.2). It never sends an
 * `Access-Control-Allow-*` header, and an OPTIONS preflight is answered 405 like any other method
 * the endpoints do not take. Only these change that:
 *
 * - fault `cors-open`: `Access-Control-Allow-Origin: *` everywhere and every preflight granted;
 * - variant `cors-preflight-granted-request-refused` (conformant, as oidc-provider): a preflight is
 *   granted for the origin asking, but the request itself, when it carries an Origin, is refused
 *   with 400 invalid_request and no Access-Control-Allow-Origin.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Reference } from '../context.js';
import { badRequest } from '../errors.js';
import { sendEmpty } from '../respond.js';

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

/** Variant `cors-preflight-granted-request-refused`: a request from a page (it has an Origin) is refused. */
export function refuseCrossOrigin(ref: Reference, req: IncomingMessage): void {
  if (ref.faults.has('cors-preflight-granted-request-refused') && req.headers.origin !== undefined) {
    throw badRequest('invalid_request', 'Requests from web pages are not allowed for this client.');
  }
}
