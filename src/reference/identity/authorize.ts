/**
 * GET {identity}/protocol/openid-connect/auth: the authorization endpoint of the sign-in pages
 * (OpenID Connect authorization-code flow with PKCE S256).
 *
 * Steps: readAuthRequest (a bad client or redirect_uri is an HTML 400; anything else goes back to
 * the client as `error=...`), readSignInSession, then by `prompt`:
 *
 * - none:   signed in → code at once; not signed in → `error=login_required`;
 * - login:  the re-authentication form for the signed-in user (password only), or the full form;
 * - absent: signed in → code at once (single sign-on); not signed in → the sign-in form.
 */
import type { RequestContext } from '../context.js';
import type { User } from '../directory.js';
import { sendPage } from '../html-pages.js';
import { type AuthRequest, completeSignIn, readAuthRequest, redirectBack, sealRequest } from './auth-request.js';
import { loginPage } from './login-page.js';
import { readSignInSession } from './session.js';

export function authorize(ctx: RequestContext): void {
  const checked = readAuthRequest(ctx);
  if (!checked.ok) {
    redirectBack(ctx, checked.redirectUri, checked.state, { error: checked.error, error_description: checked.description });
    return;
  }
  const { request } = checked;
  const user = readSignInSession(ctx);
  if (request.prompt === 'none') {
    if (user !== undefined) completeSignIn(ctx, request, user, false);
    else redirectBack(ctx, request.redirectUri, request.state, { error: 'login_required' });
    return;
  }
  if (request.prompt === 'login') {
    askPasswordAgain(ctx, request, user);
    return;
  }
  if (user !== undefined) completeSignIn(ctx, request, user, false);
  else showForm(ctx, request, undefined);
}

/**
 * TOKEN-PAGE-REAUTH: `prompt=login` always asks for the password, and while a session exists the
 * form shows that user (name and e-mail) and asks for the password only. Only a code from such a
 * sign-in yields a personal API token (code-grant.ts).
 */
function askPasswordAgain(ctx: RequestContext, request: AuthRequest, user: User | undefined): void {
  if (user !== undefined && ctx.ref.faults.has('token-page-no-reauth')) {
    completeSignIn(ctx, request, user, true);
    return;
  }
  if (ctx.ref.faults.has('token-page-reauth-shows-no-user')) {
    showForm(ctx, { ...request, loginHint: '' }, undefined);
    return;
  }
  showForm(ctx, request, user);
}

function showForm(ctx: RequestContext, request: AuthRequest, user: User | undefined): void {
  const sealed = sealRequest(ctx, { ...request, userId: user?.id ?? '' });
  sendPage(ctx.res, 200, loginPage(ctx, { sealed, user, username: request.loginHint }));
}
