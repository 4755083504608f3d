/**
 * Access tokens are self-contained: `at1.<kind>.<user>.<tenant>.<expiry>.<serial>.<mac>`, signed
 * with the server's HMAC key and verified with a constant-time comparison. Nothing is stored per
 * access token, so memory does not grow with the number of exchanges, and a permission change is
 * seen on the next request because the token names the user, never the user's permissions.
 *
 * `tenant` is the tenant a partner-minted token is narrowed to, or `_` for a sign-in token, which
 * identifies the user only (the host's tenant then decides, by membership).
 */
import type { Clock } from './clock.js';
import type { MacKey } from './secrets.js';

/** Lifetime announced and enforced for every access token (spec §3, §8). */
export const ACCESS_TOKEN_SECONDS = 300;

type AccessKind = 'signin' | 'partner';

export interface AccessClaims {
  readonly kind: AccessKind;
  readonly userId: string;
  /** The only tenant the token works at, or null for a token that identifies the user only. */
  readonly tenant: string | null;
  readonly expiresAt: number;
}

/** What `verify` reads in a token: its claims, or why it is refused. */
type Verification = { readonly ok: true; readonly claims: AccessClaims } | { readonly ok: false; readonly reason: 'malformed' | 'expired' };

const PREFIX = 'at1';
/** Stands for "no tenant" in the token text; `_` is in no tenant label and in RFC 6750's b64token. */
const ANY_TENANT = '_';
const SAFE = /^[a-z0-9-]+$/;

// ACCESS-TOKEN-LIFETIME: an access token is valid 300 seconds by the injected clock, then refused.
export class AccessTokens {
  readonly #mac: MacKey;
  readonly #clock: Clock;
  #serial = 0;

  constructor(mac: MacKey, clock: Clock) {
    this.#mac = mac;
    this.#clock = clock;
  }

  /** Signs a token valid for `lifetimeSeconds` (300 unless a fault says otherwise). */
  issue(kind: AccessKind, userId: string, tenant: string | null, lifetimeSeconds = ACCESS_TOKEN_SECONDS): string {
    if (!SAFE.test(userId) || (tenant !== null && !SAFE.test(tenant))) throw new Error('unsafe claim');
    const expiresAt = this.#clock.now() + lifetimeSeconds * 1000;
    this.#serial = (this.#serial + 1) % Number.MAX_SAFE_INTEGER;
    const body = `${PREFIX}.${kind === 'signin' ? 's' : 'p'}.${userId}.${tenant ?? ANY_TENANT}.${expiresAt.toString(36)}.${this.#serial.toString(36)}`;
    return `${body}.${this.#mac.tag(body)}`;
  }

  verify(token: string): Verification {
    const dot = token.lastIndexOf('.');
    if (dot < 0 || token.length > 512 || !token.startsWith(`${PREFIX}.`)) return MALFORMED;
    const body = token.slice(0, dot);
    if (!this.#mac.verify(body, token.slice(dot + 1))) return MALFORMED;
    const [, kind, userId, tenant, expiry] = body.split('.');
    if (kind === undefined || userId === undefined || tenant === undefined || expiry === undefined) return MALFORMED;
    const expiresAt = parseInt(expiry, 36);
    if (this.#clock.now() >= expiresAt) return EXPIRED;
    return {
      ok: true,
      claims: { kind: kind === 's' ? 'signin' : 'partner', userId, tenant: tenant === ANY_TENANT ? null : tenant, expiresAt },
    };
  }
}

const MALFORMED: Verification = { ok: false, reason: 'malformed' };
const EXPIRED: Verification = { ok: false, reason: 'expired' };
