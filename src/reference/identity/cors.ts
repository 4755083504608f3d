/**
 * The sign-in server grants no cross-origin access (spec §4.2): it never sends an
 * `Access-Control-Allow-*` header, and an OPTIONS preflight is answered 405 like any other method
 * the endpoints do not take. Only the `cors-open` fault changes that, here.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Reference } from '../context.js';
import { sendEmpty } from '../respond.js';

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
