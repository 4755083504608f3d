/** The `tack-hook/1` endpoints, relative to the hook path (`/__tack`). */
import type { RequestContext } from '../context.js';
import { type Route, route } from '../route-table.js';
import { generateApiTokenEndpoint } from './api-tokens.js';
import { createBusiness, setAccess } from './businesses.js';
import { advanceClock, readClock } from './clock.js';
import { discover } from './discovery.js';
import { setFeatures } from './features.js';
import { createHookUser, disableUser } from './users.js';

export function hookRoutes(): readonly Route<RequestContext>[] {
  return [
    route('hook discovery', '/', { GET: discover }),
    route('hook clock', '/clock', { GET: readClock, POST: advanceClock }),
    route('hook create user', '/tenants/:tenant/users', { POST: createHookUser }),
    route('hook api token', '/tenants/:tenant/users/:email/api-tokens', { POST: generateApiTokenEndpoint }),
    route('hook disable user', '/users/:email/disable', { POST: disableUser }),
    route('hook create business', '/tenants/:tenant/businesses', { POST: createBusiness }),
    route('hook access', '/tenants/:tenant/businesses/:id/access/:email', { PUT: setAccess }),
    route('hook features', '/tenants/:tenant/features', { PUT: setFeatures }),
  ];
}
