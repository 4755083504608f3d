/**
 * POST {identity}/protocol/openid-connect/revoke (RFC 7009): deletes the API token and answers 200
 * with an empty body, also for a token that is unknown, already revoked or rotated out (RFC 7009
 * §2.2: an invalid token is not an error). `token_type_hint` is optional and ignored: the server
 * revokes only API tokens, and looks the token up whatever the hint says.
 */
import type { RequestContext } from '../context.js';
import { NO_STORE, sendEmpty, sendJson } from '../respond.js';
import { checkClient, param, readForm } from './form-body.js';

// SIGNIN-REVOKE: 200 with an empty body; the token is gone, so its next exchange is invalid_grant.
export async function revoke(ctx: RequestContext): Promise<void> {
  const form = await readForm(ctx);
  checkClient(ctx, form);
  const token = param(form, 'token');
  deleteToken(ctx, token);
  answer(ctx);
}

function deleteToken(ctx: RequestContext, token: string): void {
  if (ctx.ref.faults.has('revoke-no-op')) return;
  ctx.ref.apiTokens.revoke(token);
}

function answer(ctx: RequestContext): void {
  if (ctx.ref.faults.has('revoke-answers-with-body')) {
    sendJson(ctx.res, 200, { revoked: true }, NO_STORE);
    return;
  }
  sendEmpty(ctx.res, 200, NO_STORE);
}
