/**
 * A rate-limiting gateway in front of the server (the `gateway-503-retry-after` variant): the first
 * call of the partner token, sign-in token and business search endpoints is answered 503 with
 * `Retry-After` (1 s for the partner token, 0 s for the others, so a run takes about a second
 * longer), as a shared UAT behind such a gateway does. A client that honours it and sends the call
 * again gets the server's answer. Requests a browser sends (they carry `Origin`) pass untouched.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Reference } from './context.js';
import { sendJson } from './respond.js';

/** The routes the gateway holds back once, with the Retry-After it asks for. */
const HELD_ONCE: Readonly<Record<string, string>> = {
  'partner token': '1',
  'sign-in token exchange': '0',
  'business search': '0',
};

const held = new WeakMap<Reference, Set<string>>();

/** True when the gateway answered this request itself (503 with Retry-After) and the route must not run. */
export function gatewayBusy(ref: Reference, route: string, req: IncomingMessage, res: ServerResponse): boolean {
  if (!ref.faults.has('gateway-503-retry-after') || req.headers.origin !== undefined) return false;
  const retryAfter = HELD_ONCE[route];
  if (retryAfter === undefined) return false;
  const seen = held.get(ref) ?? new Set<string>();
  held.set(ref, seen);
  if (seen.has(route)) return false;
  seen.add(route);
  sendJson(res, 503, { error: 'temporarily_unavailable', error_description: 'Rate limit reached; try again later.' }, { 'retry-after': retryAfter });
  return true;
}
