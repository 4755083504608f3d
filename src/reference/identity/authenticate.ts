/**
 * POST {identity}/login-actions/authenticate: the submitted sign-in form (form-encoded: `request`,
 * `action`, `username` unless re-authenticating, `password`).
 *
 * Steps: readForm, openRequest (expired or forged: an HTML 400), cancel (→ the client's
 * redirect_uri with `error=access_denied` and the state), findUser (the user the re-authentication
 * form showed, or the one named by e-mail), checkPassword (scrypt, timing-safe, the same cost for an
 * unknown user), startSignInSession, completeSignIn (→ redirect_uri with a one-time code).
 *
 * A wrong user name or password, a user without a password or a disabled user: the same form again
 * (200) with "Invalid username or password." and nothing that tells which. Each refusal of a known
 * user is counted (`ReferenceServer.failedSignIns`, for tests). There is no lockout unless the
 * server is started with `lockAfterFailedSignIns` (tests of tack's password guard): from that many
 * refusals on, every sign-in of the user, whatever the password, answers a page saying the account
 * is locked, without a form, and counts as refused.
 * The password is read and compared, never stored, echoed or logged.
 */
import type { RequestContext } from '../context.js';
import type { User } from '../directory.js';
import { sendPage } from '../html-pages.js';
import { type AuthRequest, completeSignIn, openRequest, redirectBack } from './auth-request.js';
import { type Form, readForm } from './form-body.js';
import { lockedPage, loginPage } from './login-page.js';
import { startSignInSession } from './session.js';

const INVALID = 'Invalid username or password.';

export async function authenticate(ctx: RequestContext): Promise<void> {
  const form = await readForm(ctx);
  const request = openRequest(ctx, form.get('request'));
  if (form.get('action') === 'cancel') {
    redirectBack(ctx, request.redirectUri, request.state, { error: 'access_denied' });
    return;
  }
  const shown = findShownUser(ctx, request);
  const user = shown ?? findUser(ctx, form);
  const locked = isLocked(ctx, user);
  if (locked || !(await checkPassword(ctx, user, form.get('password') ?? '')) || user === undefined) {
    if (user !== undefined) ctx.ref.failedSignIns.set(user.id, (ctx.ref.failedSignIns.get(user.id) ?? 0) + 1);
    if (locked || isLocked(ctx, user)) sendPage(ctx.res, 200, lockedPage());
    else sendPage(ctx.res, 200, loginPage(ctx, { sealed: form.get('request') ?? '', user: shown, username: form.get('username') ?? '', alert: INVALID }));
    return;
  }
  startSignInSession(ctx, user);
  // TOKEN-PAGE-REAUTH: the password was typed at a prompt=login request: this code may yield an API token.
  completeSignIn(ctx, request, user, request.prompt === 'login');
}

/** Brute-force protection: the user was refused `lockAfterFailedSignIns` times already. */
function isLocked(ctx: RequestContext, user: User | undefined): boolean {
  const limit = ctx.ref.config.lockAfterFailedSignIns;
  return limit !== undefined && user !== undefined && (ctx.ref.failedSignIns.get(user.id) ?? 0) >= limit;
}

/** The signed-in user a re-authentication form showed (bound into the signed request). */
function findShownUser(ctx: RequestContext, request: AuthRequest): User | undefined {
  return request.userId === '' ? undefined : ctx.ref.directory.user(request.userId);
}

function findUser(ctx: RequestContext, form: Form): User | undefined {
  const username = (form.get('username') ?? '').trim();
  return username === '' || username.length > 254 ? undefined : ctx.ref.directory.userByEmail(username);
}

async function checkPassword(ctx: RequestContext, user: User | undefined, password: string): Promise<boolean> {
  const known = user !== undefined && !user.disabled && ctx.ref.passwords.has(user.id) ? user.id : undefined;
  return ctx.ref.passwords.verify(known, password);
}
