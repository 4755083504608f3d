/** The endpoints of a tenant host: the partner-key admin API, business search and the account pages. */
import type { TenantContext } from '../context.js';
import { createUser } from '../partner/create-user.js';
import { refreshToken } from '../partner/refresh.js';
import { resetPassword } from '../partner/reset-password.js';
import { mintToken } from '../partner/token.js';
import { page, type Route, route } from '../route-table.js';
import { accountPage } from '../web/account.js';
import { apiTokensPage, generateToken } from '../web/api-tokens.js';
import { signInCallback } from '../web/callback.js';
import { ACCOUNT_PATH, CALLBACK_PATH, GENERATE_PATH, TOKEN_PAGE_PATH } from '../web-paths.js';
import { searchBusinesses } from './search.js';

export function tenantRoutes(): readonly Route<TenantContext>[] {
  return [
    route('partner token', '/api/admin/authentication/token', { POST: mintToken }),
    route('partner refresh', '/api/admin/authentication/refresh', { POST: refreshToken }),
    route('partner create user', '/api/admin/users', { POST: createUser }),
    route('partner reset password', '/api/admin/users/:email/reset-password', { POST: resetPassword }),
    route('business search', '/api/businesses/search', { GET: searchBusinesses }),
    page('account details page', ACCOUNT_PATH, { GET: accountPage }),
    page('token page', TOKEN_PAGE_PATH, { GET: apiTokensPage }),
    page('token page: generate (server-side page)', GENERATE_PATH, { GET: generateToken }),
    page('sign-in callback', CALLBACK_PATH, { GET: signInCallback }),
  ];
}
