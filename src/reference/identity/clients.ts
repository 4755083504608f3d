/**
 * The one client of the realm: `payroll-portal` (configurable), public (no secret, PKCE S256
 * required), whose redirect URIs are exactly, on every tenant host, the sign-in callback and the
 * token page: `http://{tenant}.localhost:PORT/account/callback` and `.../account/api-tokens`.
 * A redirect_uri is compared as a whole string, as OAuth 2.0 Security BCP §4.1.3 asks.
 */
import { type Reference, tenantUrl } from '../context.js';
import { REDIRECT_PATHS } from '../web-paths.js';

/** The tenant whose registered redirect URI this is, or undefined. */
export function registeredRedirect(ref: Reference, uri: string): string | undefined {
  for (const name of ref.directory.tenants.keys()) {
    const base = tenantUrl(ref, name);
    if (uri.startsWith(base) && REDIRECT_PATHS.includes(uri.slice(base.length))) return name;
  }
  return undefined;
}
