/**
 * Every hook call carries `Authorization: Bearer <TACK_HOOK_TOKEN>`; anything else is 401 before a
 * path is even matched, so the hook reveals nothing to a caller without the token.
 */
import type { IncomingMessage } from 'node:http';
import type { Reference } from '../context.js';
import { unauthorized } from '../errors.js';
import { safeEqual } from '../secrets.js';

const BEARER = /^Bearer +(\S+) *$/i;

export function requireHookToken(ref: Reference, req: IncomingMessage): void {
  const header = req.headers.authorization;
  const token = header === undefined ? undefined : BEARER.exec(header)?.[1];
  if (token === undefined || !safeEqual(token, ref.config.hookToken)) {
    throw unauthorized('unauthorized', 'The hook token is missing or wrong.', 'Bearer realm="tack-hook"');
  }
}
