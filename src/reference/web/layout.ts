/**
 * The frame of the tenant host's account pages: a header with the tenant's name and the account
 * menu, a `<nav aria-label="Account menu">` whose heading is "Account" and whose entries are
 * "Account details" (`/account`) and, where the user may generate tokens, "API tokens"
 * (`/account/api-tokens`), then the page's `<main>`.
 */
import type { Tenant, User } from '../directory.js';
import { escapeHtml } from '../html-pages.js';
import { ACCOUNT_PATH, TOKEN_PAGE_PATH } from '../web-paths.js';

/** Where the API-token entry and page exist: the tenant's feature is on and the user signs in directly (spec §1). */
export function tokensAvailable(tenant: Tenant, user: User): boolean {
  return tenant.features.apiTokens && user.signIn === 'direct';
}

export function frame(tenant: Tenant, user: User, current: string, main: string): string {
  const entry = (path: string, label: string): string => `<li><a href="${path}"${path === current ? ' aria-current="page"' : ''}>${escapeHtml(label)}</a></li>`;
  const entries = [entry(ACCOUNT_PATH, 'Account details')];
  if (tokensAvailable(tenant, user)) entries.push(entry(TOKEN_PAGE_PATH, 'API tokens'));
  return (
    `<header>\n<strong>${escapeHtml(tenant.displayName)}</strong>\n` +
    `<nav aria-label="Account menu">\n<h2>Account</h2>\n<ul>${entries.join('')}</ul>\n</nav>\n</header>\n` +
    `<main>\n${main}\n</main>`
  );
}
