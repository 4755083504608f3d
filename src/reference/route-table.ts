/**
 * Route tables: a route is a path pattern (`/users/:email/disable`) and a handler per method.
 * Parameters are percent-decoded one segment at a time; a segment that is not valid UTF-8
 * percent-encoding is a 400, never an exception that escapes.
 */
import type { Handler, RequestContext } from './context.js';
import { badRequest } from './errors.js';

export interface Route<C extends RequestContext> {
  readonly name: string;
  readonly segments: readonly string[];
  readonly methods: Readonly<Record<string, Handler<C>>>;
  readonly allow: readonly string[];
  /** A web page: its errors are answered as HTML pages, not JSON. */
  readonly html: boolean;
}

/** `pattern` is a path like `/api/admin/users/:email/reset-password`; `:name` segments are parameters. */
export function route<C extends RequestContext>(name: string, pattern: string, methods: Readonly<Record<string, Handler<C>>>): Route<C> {
  return { name, segments: pattern.split('/').slice(1), methods, allow: Object.keys(methods), html: false };
}

/** A route that serves a web page: errors on it (405, 400, 404 of a lookup) are HTML pages. */
export function page<C extends RequestContext>(name: string, pattern: string, methods: Readonly<Record<string, Handler<C>>>): Route<C> {
  return { ...route(name, pattern, methods), html: true };
}

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

interface Match<C extends RequestContext> {
  readonly route: Route<C>;
  readonly params: Record<string, string>;
}

/** Routes of one host: fixed paths in a Map (the hot paths), patterns tried in order after. */
export class RouteTable<C extends RequestContext> {
  readonly #exact = new Map<string, Route<C>>();
  readonly #patterns: Route<C>[] = [];

  constructor(routes: readonly Route<C>[]) {
    for (const candidate of routes) {
      if (candidate.segments.some((segment) => segment.startsWith(':'))) this.#patterns.push(candidate);
      else this.#exact.set(`/${candidate.segments.join('/')}`, candidate);
    }
  }

  match(path: string): Match<C> | undefined {
    const exact = this.#exact.get(path);
    return exact === undefined ? matchRoute(this.#patterns, path) : { route: exact, params: NO_PARAMS };
  }
}

function matchRoute<C extends RequestContext>(routes: readonly Route<C>[], path: string): Match<C> | undefined {
  if (routes.length === 0) return undefined;
  const parts = path.split('/').slice(1);
  outer: for (const candidate of routes) {
    if (candidate.segments.length !== parts.length) continue;
    let params: Record<string, string> | undefined;
    for (let i = 0; i < parts.length; i++) {
      const want = candidate.segments[i] as string;
      const got = parts[i] as string;
      if (want.startsWith(':')) {
        if (got === '') continue outer;
        params ??= {};
        params[want.slice(1)] = decodeSegment(got);
      } else if (want !== got) {
        continue outer;
      }
    }
    return { route: candidate, params: params ?? NO_PARAMS };
  }
  return undefined;
}

function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest('invalid_path', 'A path segment is not valid percent-encoding of UTF-8.');
  }
}
