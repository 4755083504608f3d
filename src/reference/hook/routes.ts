/**
 * The `tack-hook/1` endpoints, relative to the hook path (`/__tack`), each behind the capability
 * that names it: an endpoint of a capability the server was started without answers 404, as on a
 * target that does not implement it.
 */
import type { Handler, RequestContext } from '../context.js';
import { notFound } from '../errors.js';
import { type Route, route } from '../route-table.js';
import { generateApiTokenEndpoint } from './api-tokens.js';
import { createBusiness, setAccess } from './businesses.js';
import { advanceClock, readClock } from './clock.js';
import type { HookCapability } from './capabilities.js';
import { discover } from './discovery.js';
import { setFeatures } from './features.js';
import { createHookUser, disableUser } from './users.js';

export function hookRoutes(): readonly Route<RequestContext>[] {
  return [
    route('hook discovery', '/', { GET: discover }),
    route('hook clock', '/clock', { GET: offered('clock', readClock), POST: offered('clock', advanceClock) }),
    route('hook create user', '/tenants/:tenant/users', { POST: offered('users', createHookUser) }),
    route('hook api token', '/tenants/:tenant/users/:email/api-tokens', { POST: offered('api-tokens', generateApiTokenEndpoint) }),
    route('hook disable user', '/users/:email/disable', { POST: offered('disable-user', disableUser) }),
    route('hook create business', '/tenants/:tenant/businesses', { POST: offered('businesses', createBusiness) }),
    route('hook access', '/tenants/:tenant/businesses/:id/access/:email', { PUT: offered('access', setAccess) }),
    route('hook features', '/tenants/:tenant/features', { PUT: offered('features', setFeatures) }),
  ];
}

function offered(capability: HookCapability, handler: Handler<RequestContext>): Handler<RequestContext> {
  return (ctx) => {
    if (!ctx.ref.config.hookCapabilities.includes(capability)) throw notFound('not_offered', `This hook does not offer the ${capability} capability.`);
    return handler(ctx);
  };
}
