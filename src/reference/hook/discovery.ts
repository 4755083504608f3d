/**
 * GET / : the contract and the capabilities this server offers (./capabilities.ts): by default every
 * one it implements; started with fewer, only those, and the others' endpoints answer 404.
 */
import type { RequestContext } from '../context.js';
import { sendJson } from '../respond.js';

const CONTRACT = 'tack-hook/1';

export function discover(ctx: RequestContext): void {
  sendJson(ctx.res, 200, { contract: CONTRACT, capabilities: ctx.ref.config.hookCapabilities });
}
