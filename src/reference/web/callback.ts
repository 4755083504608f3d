/**
 * GET /account/callback: where the sign-in server sends the browser after signing in for the
 * account pages (not after Generate token: that comes back to the token page itself).
 *
 * Steps: readParams (each at most once), takePendingLogin (the tack_login cookie; missing or
 * expired: a 400 page with a link to start again), checkState (timing-safe; mismatch: 400 page),
 * a cancelled sign-in (`error=...`: a page saying so, with a link to sign in again), redeemCode
 * (in-process, through the token endpoint's own checks: client, redirect_uri, code_verifier),
 * checkMembership (403 page), startSession, 302 to the page the sign-in started from.
 */
import type { TenantContext } from '../context.js';
import { badRequest, forbidden } from '../errors.js';
import { escapeHtml, sendPage, sendRedirect } from '../html-pages.js';
import { readParams } from '../identity/auth-request.js';
import { activeUser, redeemCode } from '../identity/code-grant.js';
import { safeEqual } from '../secrets.js';
import { ACCOUNT_PATH } from '../web-paths.js';
import { callbackUrl, startSession, takePendingLogin } from './session.js';

export function signInCallback(ctx: TenantContext): void {
  const params = readParams(ctx.query);
  const login = takePendingLogin(ctx);
  if (login === undefined) throw badRequest('sign_in_expired', 'This sign-in has expired or was started elsewhere. Open your account page to sign in again.');
  if (!safeEqual(params.get('state') ?? '', login.state))
    throw badRequest('state_mismatch', 'This sign-in does not match the one this browser started. Sign in again.');
  const error = params.get('error');
  if (error !== null) {
    const main = `<h1>Sign-in was cancelled</h1>\n<p>You are not signed in. <a href="${escapeHtml(login.returnTo)}">Sign in</a></p>`;
    sendPage(ctx.res, 200, { title: 'Sign-in was cancelled', body: `<main>\n${main}\n</main>` });
    return;
  }
  const grant = redeemCode(ctx.ref, {
    code: params.get('code') ?? '',
    clientId: ctx.ref.config.clientId,
    redirectUri: callbackUrl(ctx),
    verifier: login.verifier,
  });
  const user = activeUser(ctx.ref, grant);
  if (!ctx.tenant.members.has(user.id)) throw forbidden('not_a_member', 'The signed-in user is not a member of this tenant.');
  startSession(ctx, user);
  sendRedirect(ctx.res, login.returnTo || ACCOUNT_PATH);
}
