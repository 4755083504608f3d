/**
 * The web pages of a tenant host. The two redirect URIs of the `payroll-portal` client are on
 * every tenant host: the sign-in callback and the token page itself (Generate token comes back
 * to the page, whose script redeems the code).
 */
export const ACCOUNT_PATH = '/account';
export const TOKEN_PAGE_PATH = '/account/api-tokens';
export const CALLBACK_PATH = '/account/callback';
/** Generate token on the server-side token page (variant token-page-server-side): to the sign-in server, back to the page. */
export const GENERATE_PATH = '/account/api-tokens/generate';

export const REDIRECT_PATHS: readonly string[] = [CALLBACK_PATH, TOKEN_PAGE_PATH];
