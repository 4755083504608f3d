/**
 * Routing: first by Host (port ignored), then by path, then by method.
 *
 * - `{tenant}.localhost`        the tenant API of that tenant (partner-key endpoints, search) and
 *                               its web pages (`/account...`);
 * - `id.localhost` + realm path the sign-in server (token, revoke, discovery, the sign-in pages);
 * - hook hosts + `/__tack`      the test hook (Bearer-protected before any path is matched);
 * - anything else               404 problem.
 *
 * A listener can instead be bound to one host role (`tack client` gives each role its own loopback
 * port, so a client needs no name resolution): every request it receives is routed as that host,
 * whatever its Host header says. A scripted answer (scripted-answers.ts), when one applies, replaces the
 * handler once the route is chosen.
 *
 * Every request runs inside one try/catch that hands whatever is thrown to the one serializer, in
 * the error format of the host called (HTML for the routes that are web pages). An unknown path is 404, a known path with another method 405 with
 * Allow, a path segment that is not valid percent-encoding 400. A client that disconnects mid-body
 * gets nothing written.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isClientGone } from './body.js';
import type { Handler, Reference, RequestContext, TenantContext } from './context.js';
import { RouteTable } from './route-table.js';
import { methodNotAllowed, notFound } from './errors.js';
import { classifyHost, type HostKind, hostName, urlHostFor } from './host.js';
import { type ErrorFormat, sendError } from './problem.js';
import { identityRoutes } from './identity/routes.js';
import { applyCorsFault, isPreflight, preflight, refuseCrossOrigin } from './identity/cors.js';
import { hasValidAccessToken } from './api/bearer.js';
import { tenantRoutes } from './api/routes.js';
import { hookRoutes } from './hook/routes.js';
import { gatewayBusy } from './gateway.js';
import { requireHookToken } from './hook/auth.js';

interface Target {
  readonly path: string;
  readonly query: string;
}

/** `scheme://authority` at the start of an absolute-form target. */
const SCHEME_AND_AUTHORITY = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

/**
 * Splits the request target; absolute-form (`http://host/path`) is reduced to the path and query after its
 * authority, as written: the same path as the origin-form target would be, with no dot segment resolved and no
 * `\` read as `/` (a URL parser's browser rules would make `http://host/x/../api/…` the API while
 * `/x/../api/…` is not found).
 */
function splitTarget(url: string | undefined): Target {
  let target = url ?? '';
  if (!target.startsWith('/')) {
    const authority = SCHEME_AND_AUTHORITY.exec(target);
    if (authority === null) throw notFound('not_found', 'No such resource.');
    const rest = target.slice(authority[0].length);
    target = rest.startsWith('/') ? rest : `/${rest}`;
  }
  const q = target.indexOf('?');
  return q < 0 ? { path: target, query: '' } : { path: target.slice(0, q), query: target.slice(q + 1) };
}

interface Selected<C extends RequestContext> {
  readonly handler: Handler<C> | undefined;
  readonly params: Record<string, string>;
  readonly name: string;
  readonly html: boolean;
  readonly allow: readonly string[];
}

/** The route of `path`; `handler` is undefined when the route does not take `method` (405, in the route's error format). */
function select<C extends RequestContext>(routes: RouteTable<C>, path: string, method: string): Selected<C> {
  const found = routes.match(path);
  if (found === undefined) throw notFound('not_found', 'No such resource.');
  const { route } = found;
  return { handler: route.methods[method], params: found.params, name: route.name, html: route.html, allow: route.allow };
}

function handlerOf<C extends RequestContext>(chosen: Selected<C>): Handler<C> {
  if (chosen.handler !== undefined) return chosen.handler;
  throw methodNotAllowed(chosen.allow);
}

/**
 * The request listener of one server instance. With `role`, every request is routed as that host
 * (a listener of one host role); without, by its Host header.
 */
export function createRequestListener(ref: Reference, role?: HostKind): (req: IncomingMessage, res: ServerResponse) => void {
  const tenant = new RouteTable(tenantRoutes());
  const identity = new RouteTable(identityRoutes());
  const hook = new RouteTable(hookRoutes());
  checkScript(
    ref,
    [...tenantRoutes(), ...identityRoutes()].map((r) => r.name),
  );
  const realmPrefix = `${ref.config.realmPath}/`;
  const hookPath = ref.config.hookPath;

  return (req, res) => {
    let format: ErrorFormat = 'problem';
    let where = 'routing';
    try {
      const { path, query } = splitTarget(req.url);
      const method = req.method ?? 'GET';
      const host = role ?? classifyHost(hostName(req.headers.host), ref.config.hookHosts);
      let result: Promise<void> | void;
      switch (host.kind) {
        case 'tenant': {
          const found = ref.directory.tenant(host.tenant);
          if (found === undefined) throw notFound('unknown_tenant', 'No tenant is served at this host.');
          const chosen = select(tenant, path, method);
          where = chosen.name;
          if (chosen.html) format = 'html';
          const handler = handlerOf(chosen);
          if (gatewayBusy(ref, chosen.name, req, res)) return;
          ref.script?.intercept(chosen.name, found.name, () => hasValidAccessToken({ ref, req }));
          const ctx: TenantContext = { ref, req, res, params: chosen.params, query, tenant: found };
          result = handler(ctx);
          break;
        }
        case 'identity': {
          applyCorsFault(ref, res);
          if (!path.startsWith(realmPrefix)) throw notFound('not_found', 'No such resource.');
          const inner = path.slice(realmPrefix.length - 1);
          if (isPreflight(ref, method)) {
            preflight(ref, req, res);
            return;
          }
          const chosen = select(identity, inner, method);
          where = chosen.name;
          format = chosen.html ? 'html' : 'oauth';
          refuseCrossOrigin(ref, req);
          const handler = handlerOf(chosen);
          if (gatewayBusy(ref, chosen.name, req, res)) return;
          ref.script?.intercept(chosen.name, ref.config.realmPath, () => false);
          const own = role === undefined ? {} : { identityBase: ownAddress(req, ref.config.realmPath) };
          result = handler({ ref, req, res, params: chosen.params, query, ...own });
          break;
        }
        case 'hook': {
          if (path !== hookPath && !path.startsWith(`${hookPath}/`)) throw notFound('not_found', 'No such resource.');
          format = 'hook';
          requireHookToken(ref, req);
          const inner = path.length === hookPath.length ? '/' : path.slice(hookPath.length);
          const chosen = select(hook, inner, method);
          where = chosen.name;
          result = handlerOf(chosen)({ ref, req, res, params: chosen.params, query });
          break;
        }
        default:
          throw notFound('unknown_host', 'No service is served at this host.');
      }
      if (result !== undefined)
        result.then(
          () => ensureAnswered(res),
          (error: unknown) => fail(ref, res, format, where, error),
        );
      else ensureAnswered(res);
    } catch (error) {
      fail(ref, res, format, where, error);
    }
  };
}

/** A listener of one host role: the address the request was sent to, with `path` (what the client was given). */
function ownAddress(req: IncomingMessage, path: string): string {
  return `http://${urlHostFor(req.socket.localAddress ?? '')}:${req.socket.localPort}${path}`;
}

/** A script that names a route no table has is a mistake in tack client, found at start. */
function checkScript(ref: Reference, names: readonly string[]): void {
  const unknown = (ref.script?.routes ?? []).filter((name) => !names.includes(name));
  if (unknown.length > 0) throw new Error(`the script names routes the server does not have: ${unknown.join(', ')}`);
}

function fail(ref: Reference, res: ServerResponse, format: ErrorFormat, where: string, error: unknown): void {
  if (isClientGone(error)) {
    res.destroy();
    return;
  }
  sendError(res, format, error, ref.faults, ref.log, where);
}

/** A handler that returns without answering is a bug; answer 500 rather than leave the client hanging. */
function ensureAnswered(res: ServerResponse): void {
  if (!res.headersSent && !res.destroyed) {
    res.writeHead(500, { 'content-type': 'application/problem+json' });
    res.end(JSON.stringify({ type: 'urn:tack:problem:server_error', title: 'Internal Server Error', status: 500, detail: 'No response was produced.' }));
  }
}
