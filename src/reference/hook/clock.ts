/**
 * GET /clock and POST /clock `{"advanceSeconds": n}`: read and move the one injected clock.
 * n must be an integer >= 0 (400 bad_request otherwise). After a move the token stores are swept,
 * so tokens that the move expired leave memory at once.
 */
import { readJsonObject } from '../body.js';
import type { RequestContext } from '../context.js';
import { badRequest } from '../errors.js';
import { sendJson } from '../respond.js';

export function readClock(ctx: RequestContext): void {
  sendJson(ctx.res, 200, { now: new Date(ctx.ref.clock.now()).toISOString() });
}

export async function advanceClock(ctx: RequestContext): Promise<void> {
  const body = await readJsonObject(ctx.req);
  const seconds = body['advanceSeconds'];
  if (typeof seconds !== 'number' || !Number.isSafeInteger(seconds) || seconds < 0) {
    throw badRequest('bad_request', 'advanceSeconds must be an integer >= 0.');
  }
  try {
    ctx.ref.clock.advance(seconds);
  } catch {
    throw badRequest('bad_request', 'The clock cannot be moved that far.');
  }
  ctx.ref.apiTokens.sweep();
  ctx.ref.partnerTokens.sweep();
  ctx.ref.codes.sweep();
  readClock(ctx);
}
