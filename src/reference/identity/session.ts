/**
 * The sign-in server's own session: after a successful sign-in, cookie `tack_signin` (signed,
 * HttpOnly, SameSite=Lax, path = the realm path) names the user and when they typed their password.
 * It lasts 10 hours by the server's clock (Keycloak's default SSO session). With it, an
 * authorization request without `prompt` is answered at once (single sign-on), and one with
 * `prompt=login` shows the re-authentication form for this user. A user disabled meanwhile has no
 * session.
 */
import { HOUR } from '../clock.js';
import type { RequestContext } from '../context.js';
import { readCookie, setCookie } from '../cookies.js';
import type { User } from '../directory.js';
import { open, seal, text } from '../signed.js';

const SIGN_IN_COOKIE = 'tack_signin';
const SIGN_IN_SESSION_MS = 10 * HOUR;

export function readSignInSession(ctx: RequestContext): User | undefined {
  const { ref } = ctx;
  const payload = open(ref.mac, ref.clock, 'idsess', readCookie(ctx.req, SIGN_IN_COOKIE));
  const userId = payload === undefined ? undefined : text(payload, 'u');
  const user = userId === undefined ? undefined : ref.directory.user(userId);
  return user === undefined || user.disabled ? undefined : user;
}

export function startSignInSession(ctx: RequestContext, user: User): void {
  const { ref } = ctx;
  const value = seal(ref.mac, ref.clock, 'idsess', { u: user.id, at: ref.clock.now() }, SIGN_IN_SESSION_MS);
  setCookie(ctx.res, SIGN_IN_COOKIE, value, { path: ref.config.realmPath });
}
