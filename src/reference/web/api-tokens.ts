/**
 * GET /account/api-tokens: the token page (spec §1, §3, §5, §7, §8).
 *
 * Steps: currentUser (no session: sign in first, then back here), checkFeature (the tenant's
 * API-token feature off, or a user of a partner's embedded app: 302 to the account details page),
 * settings, page. The page's script does the rest in the browser (token-page-script.ts): it goes to
 * re-authentication, redeems the code, shows the token once.
 *
 * Variant `token-page-server-side`: Generate token leads to GET /account/api-tokens/generate
 * (`generateToken`: 302 to the sign-in server with `offline_access`), and back on the page with
 * `?code&state` (or `?error&state`) this server redeems the code (`generated`) and hands the page
 * the token, or the message, to show once.
 */
import { type TenantContext, tenantUrl } from '../context.js';
import type { User } from '../directory.js';
import { isHttpError } from '../errors.js';
import { sendPage, sendRedirect } from '../html-pages.js';
import { readParams } from '../identity/auth-request.js';
import { apiTokenOfCode } from '../identity/code-grant.js';
import { safeEqual } from '../secrets.js';
import { tokensAvailable } from './layout.js';
import { ACCOUNT_PATH, TOKEN_PAGE_PATH } from '../web-paths.js';
import { currentUser, redirectToGenerate, redirectToSignIn, takePendingGeneration } from './session.js';
import { redeemsServerSide, tokenListHtml, tokenPage, tokenPageSettings, type TokenPageSettings } from './token-page.js';

export function apiTokensPage(ctx: TenantContext): void {
  const user = currentUser(ctx);
  if (user === undefined) return redirectToSignIn(ctx, TOKEN_PAGE_PATH);
  if (!checkFeature(ctx, user)) return sendRedirect(ctx.res, ACCOUNT_PATH);
  // TOKEN-PAGE-NO-LIST: the page lists no tokens and has no revoke control.
  const list = ctx.ref.faults.has('token-page-lists-tokens') ? tokenListHtml(ctx, user) : '';
  const settings = tokenPageSettings(ctx, user);
  const outcome = settings.serverSide ? generated(ctx) : undefined;
  sendPage(ctx.res, 200, tokenPage(ctx, user, outcome ? { ...settings, generated: outcome } : settings, list));
}

/** GET /account/api-tokens/generate (server-side token page): the re-authentication request. */
export function generateToken(ctx: TenantContext): void {
  const user = currentUser(ctx);
  if (user === undefined) return redirectToSignIn(ctx, TOKEN_PAGE_PATH);
  if (!checkFeature(ctx, user) || !redeemsServerSide(ctx)) return sendRedirect(ctx.res, TOKEN_PAGE_PATH);
  redirectToGenerate(ctx, user);
}

/** Back from the sign-in server on the server-side page: the code redeemed here, or why there is no token. */
function generated(ctx: TenantContext): TokenPageSettings['generated'] {
  const params = readParams(ctx.query);
  if (!params.has('code') && !params.has('error')) return undefined;
  const pending = takePendingGeneration(ctx);
  if (pending === undefined || !safeEqual(params.get('state') ?? '', pending.state)) return { message: 'noToken' };
  // TOKEN-PAGE-CANCELLED, TOKEN-PAGE-NO-TOKEN: as the browser-side script tells them.
  if (params.has('error')) return { message: params.get('error') === 'access_denied' ? 'cancelled' : 'noToken' };
  const presented = { code: params.get('code') ?? '', clientId: ctx.ref.config.clientId, verifier: pending.verifier };
  try {
    const token = apiTokenOfCode(ctx.ref, { ...presented, redirectUri: tenantUrl(ctx.ref, ctx.tenant.name) + TOKEN_PAGE_PATH });
    return token === undefined ? { message: 'noToken' } : { token };
  } catch (error) {
    if (isHttpError(error)) return { message: 'noToken' };
    throw error;
  }
}

/** TOKEN-PAGE-FEATURE-OFF: where tokens are unavailable, the page redirects to the account details page. */
function checkFeature(ctx: TenantContext, user: User): boolean {
  return tokensAvailable(ctx.tenant, user) || ctx.ref.faults.has('token-page-feature-off-shown');
}
