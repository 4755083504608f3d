/**
 * GET / : the contract and every capability this server implements: all of tack-hook/1's, and
 * `passwords` (user creation takes an optional "password", token-page.md).
 */
import type { RequestContext } from '../context.js';
import { sendJson } from '../respond.js';

export const CONTRACT = 'tack-hook/1';
export const CAPABILITIES = ['clock', 'users', 'api-tokens', 'disable-user', 'businesses', 'access', 'features', 'passwords'] as const;

export function discover(ctx: RequestContext): void {
  sendJson(ctx.res, 200, { contract: CONTRACT, capabilities: CAPABILITIES });
}
