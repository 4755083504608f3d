/** The sign-in server's endpoints, relative to the realm path (`/realms/payroll`). */
import type { RequestContext } from '../context.js';
import { type Route, route } from '../route-table.js';
import { revoke } from './revoke.js';
import { exchange } from './token.js';

export function identityRoutes(): readonly Route<RequestContext>[] {
  return [
    route('sign-in token exchange', '/protocol/openid-connect/token', { POST: exchange }),
    route('sign-in revoke', '/protocol/openid-connect/revoke', { POST: revoke }),
  ];
}
