/**
 * GET /account: the account details page: the signed-in user's name and e-mail address
 * (`data-testid="account-name"`, `data-testid="account-email"`) and the tenant, under the account
 * menu. Without a session the browser is sent to sign in and comes back here.
 */
import type { TenantContext } from '../context.js';
import { escapeHtml, sendPage } from '../html-pages.js';
import { displayName } from '../identity/login-page.js';
import { frame } from './layout.js';
import { ACCOUNT_PATH } from '../web-paths.js';
import { currentUser, redirectToSignIn } from './session.js';

export function accountPage(ctx: TenantContext): void {
  const user = currentUser(ctx);
  if (user === undefined) return redirectToSignIn(ctx, ACCOUNT_PATH);
  const main =
    '<h1>Account details</h1>\n<dl>\n' +
    `<dt>Name</dt><dd data-testid="account-name">${escapeHtml(displayName(user))}</dd>\n` +
    `<dt>E-mail</dt><dd data-testid="account-email">${escapeHtml(user.email)}</dd>\n` +
    `<dt>Tenant</dt><dd>${escapeHtml(ctx.tenant.displayName)}</dd>\n</dl>`;
  sendPage(ctx.res, 200, { title: 'Account details', body: frame(ctx.tenant, user, ACCOUNT_PATH, main) });
}
