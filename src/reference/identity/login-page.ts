/**
 * The sign-in server's two forms, server-rendered, no script:
 *
 * - sign-in: "Username or email" (a text box; the label matches /user ?name|e-?mail/i) and
 *   "Password", buttons "Sign in" and "Cancel";
 * - re-authentication (`prompt=login` while signed in): the signed-in user's name and e-mail above
 *   the form (`data-testid="signed-in-user"`), "Password" only, "Sign in" and "Cancel".
 *
 * Both post to `{realm}/login-actions/authenticate` with the signed request in a hidden field.
 * "Sign in" comes first, so Enter in a field submits it; "Cancel" skips the browser's required-field
 * check (`formnovalidate`) and sends the user back with `error=access_denied`.
 */
import type { RequestContext } from '../context.js';
import type { User } from '../directory.js';
import { escapeHtml, type Page } from '../html-pages.js';

export const AUTHENTICATE_PATH = '/login-actions/authenticate';

interface LoginForm {
  /** The signed request (hidden field). */
  readonly sealed: string;
  /** Re-authentication of this user, or a full sign-in (undefined). */
  readonly user: User | undefined;
  readonly username: string;
  readonly alert?: string;
}

/** Brute-force protection (`lockAfterFailedSignIns`): what a locked user's sign-in answers, without a form, as Keycloak's can. */
export function lockedPage(): Page {
  return {
    title: 'Account locked',
    body:
      '<main>\n<h1>Account temporarily locked</h1>\n' +
      '<p role="alert">Too many failed sign-in attempts. Your account is temporarily locked. Try again later.</p>\n</main>',
  };
}

export function displayName(user: User): string {
  return user.displayName ?? `${user.firstName} ${user.lastName}`;
}

export function loginPage(ctx: RequestContext, form: LoginForm): Page {
  const action = escapeHtml(ctx.ref.config.realmPath + AUTHENTICATE_PATH);
  const alert = form.alert === undefined ? '' : `<p class="alert" role="alert">${escapeHtml(form.alert)}</p>\n`;
  const who =
    form.user === undefined
      ? '<label for="username">Username or email</label>\n' +
        `<input id="username" name="username" type="text" autocomplete="username" required autofocus value="${escapeHtml(form.username)}">\n`
      : '';
  const heading =
    form.user === undefined
      ? '<h1>Sign in to your account</h1>\n'
      : "<h1>Confirm it's you</h1>\n<p>Please re-enter your password to continue.</p>\n" +
        `<div class="signed-in-user" data-testid="signed-in-user"><strong data-testid="signed-in-name">${escapeHtml(displayName(form.user))}</strong><br>` +
        `<span data-testid="signed-in-email">${escapeHtml(form.user.email)}</span></div>\n`;
  return {
    title: form.user === undefined ? 'Sign in' : 'Confirm your password',
    body:
      `<main>\n${heading}${alert}<form method="post" action="${action}">\n` +
      `<input type="hidden" name="request" value="${escapeHtml(form.sealed)}">\n${who}` +
      '<label for="password">Password</label>\n' +
      `<input id="password" name="password" type="password" autocomplete="current-password" required${form.user === undefined ? '' : ' autofocus'}>\n` +
      '<button type="submit" name="action" value="sign-in">Sign in</button>\n' +
      '<button type="submit" name="action" value="cancel" formnovalidate>Cancel</button>\n</form>\n</main>',
  };
}
