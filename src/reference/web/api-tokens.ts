/**
 * GET /account/api-tokens: the token page (spec §1, §3, §5, §7, §8).
 *
 * Steps: currentUser (no session: sign in first, then back here), checkFeature (the tenant's
 * API-token feature off, or a user of a partner's embedded app: 302 to the account details page),
 * settings, page. The page's script does the rest in the browser (token-page-script.ts): it goes to
 * re-authentication, redeems the code, shows the token once.
 */
import type { TenantContext } from '../context.js';
import type { User } from '../directory.js';
import { sendPage, sendRedirect } from '../html.js';
import { tokensAvailable } from './layout.js';
import { ACCOUNT_PATH, TOKEN_PAGE_PATH } from './paths.js';
import { currentUser, redirectToSignIn } from './session.js';
import { tokenListHtml, tokenPage, tokenPageSettings } from './token-page.js';

export function apiTokensPage(ctx: TenantContext): void {
  const user = currentUser(ctx);
  if (user === undefined) return redirectToSignIn(ctx, TOKEN_PAGE_PATH);
  if (!checkFeature(ctx, user)) return sendRedirect(ctx.res, ACCOUNT_PATH);
  // TOKEN-PAGE-NO-LIST: the page lists no tokens and has no revoke control.
  const list = ctx.ref.faults.has('token-page-lists-tokens') ? tokenListHtml(ctx, user) : '';
  sendPage(ctx.res, 200, tokenPage(ctx, user, tokenPageSettings(ctx, user), list));
}

/** TOKEN-PAGE-FEATURE-OFF: where tokens are unavailable, the page redirects to the account details page. */
function checkFeature(ctx: TenantContext, user: User): boolean {
  return tokensAvailable(ctx.tenant, user) || ctx.ref.faults.has('token-page-feature-off-shown');
}
