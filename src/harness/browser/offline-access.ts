/**
 * "Sign-in completed, no token returned" on a page that redeems its code server-side
 * (token-page.md): `offline_access` is removed from the `scope` of the authorization request the
 * browser is sent to, so the user signs in and the sign-in server issues no API token, as
 * Keycloak-style servers do.
 *
 * The request reaches the browser either as a navigation of its own (a script's `location.assign`)
 * or as the target of a redirect from the page's server. Interception never sees a redirect's
 * target, so every other navigation (a GET) is fetched here without following redirects, and the
 * browser gets that answer; when it sends the browser to such a request, with the scope changed.
 */
import type { BrowserContext, Route } from 'playwright-core';
import { Agent, request } from 'undici';
import { localhostAwareLookup } from '../http.js';

export interface OfflineAccessCut {
  /** Authorization requests whose scope lost `offline_access`. */
  readonly stripped: number;
  /** Authorization requests seen with a scope (with or without `offline_access`). */
  readonly seen: number;
}

/** Headers of a connection, not of a message: never handed on. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'host']);

/**
 * Installs the cut on `context` (before the generation starts); the counts are read after it. The
 * navigations it fetches itself go out with the browser's own headers (its cookies included), on a
 * connection of their own (`*.localhost` to loopback, as the browser does; TACK_INSECURE_TLS as the
 * run's), and are recorded nowhere: a page may carry the token.
 */
export async function removeOfflineAccess(context: BrowserContext, identityUrl: string, insecureTls: boolean): Promise<OfflineAccessCut> {
  const counts = { stripped: 0, seen: 0 };
  const rewrite = (url: string): string | undefined => {
    const found = withoutOfflineAccess(url, identityUrl);
    if (found === undefined) return undefined;
    counts.seen++;
    if (found.url !== undefined) counts.stripped++;
    return found.url;
  };
  const dispatcher = new Agent({ connect: { lookup: localhostAwareLookup as never, rejectUnauthorized: !insecureTls } });
  context.once('close', () => void dispatcher.close().catch(() => undefined));
  await context.route(
    () => true,
    async (route: Route) => {
      const asked = route.request();
      if (!asked.isNavigationRequest()) return route.fallback();
      const direct = rewrite(asked.url());
      if (direct !== undefined) return route.fulfill({ status: 302, headers: { location: direct, 'cache-control': 'no-store' } });
      // The sign-in server's own pages are left alone: what leads to it is what matters.
      if (asked.method() !== 'GET' || asked.url().startsWith(`${identityUrl}/`)) return route.fallback();
      let answer: Awaited<ReturnType<typeof request>>;
      let body: Buffer;
      try {
        const sent = Object.entries(await asked.allHeaders()).filter(([name]) => !name.startsWith(':') && !HOP_BY_HOP.has(name));
        // Uncompressed, so the body handed to the browser is the page itself.
        const headers = { ...Object.fromEntries(sent), 'accept-encoding': 'identity' };
        answer = await request(asked.url(), { dispatcher, headers, signal: AbortSignal.timeout(30_000) });
        body = Buffer.from(await answer.body.arrayBuffer());
      } catch {
        return route.fallback(); // not answered: the browser meets the same failure itself
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value !== undefined && !HOP_BY_HOP.has(name) && name !== 'content-encoding') headers[name] = Array.isArray(value) ? value.join('\n') : value;
      }
      const location = headers['location'];
      const next = location === undefined ? undefined : rewrite(new URL(location, asked.url()).href);
      if (next !== undefined) headers['location'] = next;
      return route.fulfill({ status: answer.statusCode, headers, body });
    },
  );
  return counts;
}

/**
 * For an authorization request to the sign-in server with a `scope`: the URL without
 * `offline_access` (undefined in `url` when its scope has none). Undefined for any other URL.
 */
export function withoutOfflineAccess(url: string, identityUrl: string): { url: string | undefined } | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  const scope = u.searchParams.get('scope');
  if (!u.href.startsWith(`${identityUrl}/`) || scope === null || !u.searchParams.has('redirect_uri')) return undefined;
  const scopes = scope.split(' ').filter((s) => s !== '');
  if (!scopes.includes('offline_access')) return { url: undefined };
  u.searchParams.set('scope', scopes.filter((s) => s !== 'offline_access').join(' '));
  return { url: u.href };
}
