/** The sign-in server's endpoints and pages, relative to the realm path (`/realms/payroll`). */
import type { RequestContext } from '../context.js';
import { page, type Route, route } from '../route-table.js';
import { authenticate } from './authenticate.js';
import { authorize } from './authorize.js';
import { openIdConfiguration } from './discovery.js';
import { AUTHENTICATE_PATH } from './login-page.js';
import { revoke } from './revoke.js';
import { exchange } from './token.js';

export function identityRoutes(): readonly Route<RequestContext>[] {
  return [
    route('sign-in token exchange', '/protocol/openid-connect/token', { POST: exchange }),
    route('sign-in revoke', '/protocol/openid-connect/revoke', { POST: revoke }),
    route('sign-in discovery', '/.well-known/openid-configuration', { GET: openIdConfiguration }),
    page('sign-in authorization', '/protocol/openid-connect/auth', { GET: authorize }),
    page('sign-in form', AUTHENTICATE_PATH, { POST: authenticate }),
  ];
}
