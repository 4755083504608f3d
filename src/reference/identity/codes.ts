/**
 * Authorization codes of the sign-in pages (RFC 6749 §4.1, RFC 7636): one-time, valid 60 seconds
 * by the server's clock, bound to the client, the redirect_uri and the PKCE S256 challenge of the
 * request that produced them. `take()` removes a code whatever happens next, so a code is never
 * presented twice, not even after a wrong code_verifier.
 *
 * Bounded: at most 10 000 pending codes; issuing beyond that drops the oldest (Map order), and
 * expired codes go on lookup and with every sweep.
 */
import type { Clock } from '../clock.js';
import { randomSecret } from '../secrets.js';

const CODE_LIFETIME_MS = 60_000;
const MAX_CODES = 10_000;

export interface CodeGrant {
  readonly userId: string;
  readonly clientId: string;
  readonly redirectUri: string;
  /** base64url(SHA-256(code_verifier)). */
  readonly challenge: string;
  /** The tenant whose host the redirect_uri is on. */
  readonly tenant: string;
  /** The password was typed at a `prompt=login` request: only such a code yields a personal API token. */
  readonly reauthenticated: boolean;
  /** The authorization request's scope asked for `offline_access` (a long-lived token). */
  readonly offlineAccess: boolean;
  readonly expiresAt: number;
}

export class CodeStore {
  readonly #clock: Clock;
  readonly #codes = new Map<string, CodeGrant>();

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  get size(): number {
    return this.#codes.size;
  }

  issue(grant: Omit<CodeGrant, 'expiresAt'>): string {
    if (this.#codes.size >= MAX_CODES) {
      const oldest = this.#codes.keys().next();
      if (oldest.done !== true) this.#codes.delete(oldest.value);
    }
    const code = `ac1.${randomSecret(32)}`;
    this.#codes.set(code, { ...grant, expiresAt: this.#clock.now() + CODE_LIFETIME_MS });
    return code;
  }

  /** The grant of a live code, removed on the way; undefined for unknown, used or expired codes. */
  take(code: string): CodeGrant | undefined {
    const grant = this.#codes.get(code);
    if (grant === undefined) return undefined;
    this.#codes.delete(code);
    return this.#clock.now() < grant.expiresAt ? grant : undefined;
  }

  sweep(): void {
    const now = this.#clock.now();
    for (const [code, grant] of this.#codes) if (now >= grant.expiresAt) this.#codes.delete(code);
  }
}
