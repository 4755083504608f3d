/**
 * The spec (docs/spec/tenant-api-access.md) as the checking side reads it: the paths of its
 * endpoints (§4) and its limits (§3, §8), in seconds, with the tolerances tack judges them with.
 * The one place the harness's clients, the checks, steps, tests, client judges and load profiles
 * read them from. The reference server keeps its own (src/reference/): the two implementations of
 * the spec stay independent (test/architecture/independence.test.ts).
 *
 * Two tolerances, because a grace window of minutes is normal around a 30-day limit and fatal
 * around a 300-second one: TACK_CLOCK_TOLERANCE_S for the 30- and 90-day limits, and
 * TACK_ACCESS_TOLERANCE_S (at most 15 s, so a lifetime off by more than 5 % always fails) for the
 * access token. Both are at least 1 s: real time runs on top of the hook's clock.
 */

/**
 * The endpoints (§4), as paths: the partner-key endpoints and business search under a tenant host,
 * the token endpoint and revocation under the sign-in server's realm URL (TACK_IDENTITY_URL), the
 * token page under the web origin (TACK_WEB_URL; token-page.md).
 */
export const PATHS = {
  /** §4.1: a token for a user, with the partner key. */
  mint: '/api/admin/authentication/token',
  /** §4.1 rule 2: a new access token for a partner refresh token. */
  partnerRefresh: '/api/admin/authentication/refresh',
  /** §4.1: create a user. */
  users: '/api/admin/users',
  /** Every partner-key endpoint starts with it. */
  adminPrefix: '/api/admin/',
  /** §4.1, §4.3: every endpoint of the tenant API starts with it; the tenant host's web pages (§1: /account/api-tokens) do not. */
  apiPrefix: '/api/',
  /** §4.3: business search, with a bearer access token. */
  search: '/api/businesses/search',
  /** §4.2: the token endpoint: an API token (refresh_token) exchanged for an access token. */
  exchange: '/protocol/openid-connect/token',
  /** §4.2: revocation. */
  revoke: '/protocol/openid-connect/revoke',
  /** token-page.md: where a person generates an API token. */
  tokenPage: '/account/api-tokens',
} as const;

/** §4.1: reset-password for a user of the tenant. */
export function resetPasswordPath(email: string): string {
  return `${PATHS.users}/${encodeURIComponent(email)}/reset-password`;
}

export const DAY_S = 86_400;
/** Access token lifetime (spec §3, §8). */
export const ACCESS_TOKEN_S = 300;
/** A token left unused this long is expired (spec §8: 30 days, each exchange restarts it). */
export const IDLE_LIMIT_S = 30 * DAY_S;
/** A chain is expired this long after generation, however often it is used (spec §8: 90 days). */
export const ABSOLUTE_LIMIT_S = 90 * DAY_S;
/** A new API token is on screen this long (spec §3, §8: 2 minutes). */
export const TOKEN_DISPLAY_S = 120;

/** The tolerance actually used: the configured one, never below 1 s. */
export function effectiveTolerance(configuredS: number): number {
  return Math.max(1, Math.floor(configuredS));
}

/** Around the 30- and 90-day limits. */
export function clockTolerance(target: { readonly toleranceS: number }): number {
  return effectiveTolerance(target.toleranceS);
}

/** Around the 300-second access-token lifetime. */
export function accessTolerance(target: { readonly accessToleranceS: number }): number {
  return effectiveTolerance(target.accessToleranceS);
}
