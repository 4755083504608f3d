/**
 * The in-memory store of long-lived tokens: personal API tokens (the sign-in server's refresh
 * tokens) and the partner refresh tokens, one instance each. One small class with an explicit
 * `rotate()` (the habit of mock-oauth2-server).
 *
 * Rotation keeps the token just rotated out valid until its successor is first used (then it is
 * deleted). A client that lost the answer to an exchange (a crash, a kill, a dropped connection
 * after the server rotated) can therefore exchange its stored token once more; presenting it again
 * discards the unused successor. Once the successor has been used, the old token is unknown. The
 * spec is silent on rotated-out tokens (both this and Keycloak's strict refusal are conformant).
 * With `strict` (the scripted server of `tack client`), there is no grace: a rotated-out token is
 * refused at once, as Keycloak does, so a client that does not store the new token is caught.
 * Two more policies (`reuse`, the dialects of docs/reference-server.md): `once`, the token just
 * rotated out exchanges once more and the successor it replaced stays live beside the chain (a
 * branch; Keycloak's "Refresh Token Max Reuse" 1); `ends-chain`, presenting the token just rotated
 * out ends the whole chain (Keycloak-style reuse detection).
 *
 * A rotation is one step here; `rotateAsRead` is the second half of one split around a wait (the
 * race faults): a write that does not see what another exchange changed meanwhile adds its token
 * beside the chain's current one, so the chain forks into branches.
 *
 * Bounded by construction:
 * - rotation stores the new token under the same grant object and keeps at most one predecessor,
 *   so a chain costs at most two entries however often it is exchanged (`once` keeps at most
 *   `MAX_BRANCHES` branches more, dropping the oldest; only the race faults fork further);
 * - revoked tokens are deleted at once; expired ones when they are next looked up, and by `sweep()`
 *   (the server runs it every minute and after each clock move);
 * - at `maxEntries` live chains, issuing a new chain evicts the least recently used one (the set
 *   of chains keeps insertion order, and rotation re-inserts, so its first is the least recently
 *   used).
 *
 * Tokens look like `tpat_<43 random chars>.<11-char tag>`. The map is keyed by the whole token, so a
 * hit means exactly an issued, live token and costs no cryptography; the tag (a truncated HMAC of
 * the rest) is checked only on a miss, to tell a token that was never issued (`recognises` false)
 * from one that was rotated out, revoked or expired.
 */
import type { Clock } from './clock.js';
import { type MacKey, randomSecret } from './secrets.js';

interface TokenLimits {
  /** A token left unused this long expires (the 30-day limit of API tokens). */
  readonly idleMs: number;
  /** A chain expires this long after generation, however often it is used (the 90-day limit). */
  readonly absoluteMs: number;
}

interface GrantOwner {
  readonly userId: string;
  /** The tenant at which the chain began: the minting tenant for partner tokens. */
  readonly tenant: string;
  /** The partner client id that minted the chain; null for personal API tokens. */
  readonly clientId: string | null;
}

export interface Grant extends GrantOwner {
  readonly chainId: number;
  /** Start of the absolute limit; kept across rotations. */
  generatedAt: number;
  /** Start of the idle limit; each use moves it. */
  lastUsedAt: number;
  /** The chain's newest token. */
  current: string;
  /** The token rotated out last, valid until `current` is first used; then undefined. */
  previous: string | undefined;
  /** Live tokens beside the chain's line: successors a reuse left live (`once`), or a forked write made. */
  branches: Set<string> | undefined;
}

/** What a store does with the token just rotated out when it is presented again (the spec leaves it open). */
export type ReusePolicy = 'grace' | 'refused' | 'once' | 'ends-chain';

/** The chain as a read saw it, for `rotateAsRead`. */
interface ChainSnapshot {
  readonly current: string;
  readonly previous: string | undefined;
}

export interface RotateOptions {
  /** Restart the idle limit (default true; false only for the `idle-limit-not-reset` fault). */
  readonly touch?: boolean;
  /** Restart the absolute limit (default false; true only for the `absolute-limit-sliding` fault). */
  readonly restartAbsolute?: boolean;
}

interface TokenStoreOptions {
  /** Token prefix, e.g. `tpat` (personal API token) or `tprt` (partner refresh token). */
  readonly prefix: string;
  readonly limits: TokenLimits;
  readonly clock: Clock;
  readonly mac: MacKey;
  /** Most live tokens held at once (default 100 000). */
  readonly maxEntries?: number;
  /** Refuse a rotated-out token at once instead of keeping it until its successor is used (Keycloak). */
  readonly strict?: boolean;
  /** The policy for the token just rotated out (default `grace`, or `refused` with `strict`). */
  readonly reuse?: ReusePolicy;
}

/** Branches a `once` chain keeps at most (live successors of allowed reuses). */
export const MAX_BRANCHES = 4;

const RANDOM_LENGTH = 43; // 32 random bytes, base64url
const TAG_BYTES = 8;
const TAG_LENGTH = 11; // 8 bytes, base64url

// SIGNIN-IDLE-EXPIRY, SIGNIN-ABSOLUTE-EXPIRY, SIGNIN-LIFECYCLE: a grant lives 30 days unused and 90 days at most, by the injected clock.
export class TokenStore {
  readonly limits: TokenLimits;
  readonly maxEntries: number;
  readonly #prefix: string;
  readonly #clock: Clock;
  readonly #mac: MacKey;
  readonly #reuse: ReusePolicy;
  /** Every live token (a chain's current one, at most one predecessor, and its branches). */
  readonly #entries = new Map<string, Grant>();
  /** `ends-chain`: each chain's token rotated out last, no longer live, by token. */
  readonly #retired = new Map<string, Grant>();
  /** Every live chain, least recently used first. */
  readonly #chains = new Set<Grant>();
  #nextChain = 1;

  constructor(options: TokenStoreOptions) {
    this.#prefix = `${options.prefix}_`;
    this.limits = options.limits;
    this.#clock = options.clock;
    this.#mac = options.mac;
    this.maxEntries = options.maxEntries ?? 100_000;
    this.#reuse = options.reuse ?? (options.strict === true ? 'refused' : 'grace');
  }

  /** Live chains held (expired ones not yet swept included). */
  get size(): number {
    return this.#chains.size;
  }

  /** Tokens held: each chain's current token and at most one predecessor. */
  get tokenCount(): number {
    return this.#entries.size;
  }

  /** Starts a new chain and returns its first token. */
  issue(owner: GrantOwner): string {
    if (this.#chains.size >= this.maxEntries) this.#evictLeastRecentlyUsed();
    const now = this.#clock.now();
    const grant: Grant = {
      userId: owner.userId,
      tenant: owner.tenant,
      clientId: owner.clientId,
      chainId: this.#nextChain++,
      generatedAt: now,
      lastUsedAt: now,
      current: '',
      previous: undefined,
      branches: undefined,
    };
    this.#chains.add(grant);
    return this.#store(grant);
  }

  /** Whether `token` has the shape and tag of a token this store issued, live or not. */
  recognises(token: string): boolean {
    return this.#entries.has(token) || this.#wellTagged(token);
  }

  /** The live grant of `token`, or undefined: never issued, rotated out, revoked or expired. */
  find(token: string): Grant | undefined {
    const grant = this.#entries.get(token);
    if (grant === undefined) return undefined;
    if (this.isExpired(grant, this.#clock.now())) {
      this.#forget(grant);
      return undefined;
    }
    return grant;
  }

  /**
   * Replaces `token` by a new token of the same chain. Presenting the current token deletes the
   * predecessor and keeps `token` as the new predecessor; presenting the predecessor (the client
   * never received or stored the successor) discards the unused successor. A strict store keeps no
   * predecessor; the other policies are in `#retire`; a branch rotates on its own. Returns undefined
   * when `token` is no longer live.
   */
  rotate(token: string, options: RotateOptions = {}): string | undefined {
    const grant = this.#entries.get(token);
    if (grant === undefined) return undefined;
    const now = this.#clock.now();
    if (this.isExpired(grant, now)) {
      this.#forget(grant);
      return undefined;
    }
    this.#chains.delete(grant);
    this.#chains.add(grant);
    if (options.touch ?? true) grant.lastUsedAt = now;
    if (options.restartAbsolute ?? false) grant.generatedAt = now;
    if (grant.branches?.has(token)) return this.#rotateBranch(grant, token);
    this.#retire(grant, token);
    return this.#store(grant);
  }

  /**
   * The write half of a rotation whose read (`find`, and `seen`) came before a wait: when the chain
   * is still as read, `rotate`; when another exchange rotated it meanwhile, this write does not see
   * it and adds its token beside the chain's current one (a branch): the chain forks. Only the race
   * faults write this way.
   */
  rotateAsRead(token: string, grant: Grant, seen: ChainSnapshot, options: RotateOptions = {}): string | undefined {
    if (grant.current === seen.current && grant.previous === seen.previous) return this.rotate(token, options);
    if (options.touch ?? true) grant.lastUsedAt = this.#clock.now();
    return this.#branch(grant);
  }

  /**
   * A presented token that is not live: under `ends-chain`, the token its chain rotated out last
   * ends the whole chain (reuse detection). Returns whether it did.
   */
  presentedAgain(token: string): boolean {
    const grant = this.#retired.get(token);
    if (grant === undefined) return false;
    this.#forget(grant);
    return true;
  }

  /** Marks a use without rotating (only the `rotation-same-token` fault does this). */
  touch(token: string): void {
    const grant = this.find(token);
    if (grant !== undefined) grant.lastUsedAt = this.#clock.now();
  }

  /** Deletes `token` and the rest of its chain. Unknown tokens are fine (RFC 7009 §2.2). Returns whether one was live. */
  revoke(token: string): boolean {
    const grant = this.#entries.get(token);
    if (grant === undefined) return false;
    this.#forget(grant);
    return true;
  }

  /** The live chains of one user (a scan: only the `token-page-lists-tokens` fault asks). */
  grantsOf(userId: string): readonly Grant[] {
    const now = this.#clock.now();
    return [...this.#chains].filter((grant) => grant.userId === userId && !this.isExpired(grant, now));
  }

  /** Deletes every expired chain; returns how many. */
  sweep(): number {
    const now = this.#clock.now();
    let removed = 0;
    for (const grant of this.#chains) {
      if (this.isExpired(grant, now)) {
        this.#forget(grant);
        removed++;
      }
    }
    return removed;
  }

  /** When `grant` expires: the earlier of the idle and the absolute limit. */
  expiresAt(grant: Grant): number {
    return Math.min(grant.lastUsedAt + this.limits.idleMs, grant.generatedAt + this.limits.absoluteMs);
  }

  /** Expired at the limit itself: a token unused for exactly 30 days is refused. */
  isExpired(grant: Grant, now: number): boolean {
    return now >= this.expiresAt(grant);
  }

  /** What becomes of `token`, rotated on its chain's line (current or predecessor), under the store's policy. */
  #retire(grant: Grant, token: string): void {
    const reuse = this.#reuse;
    if (reuse === 'refused') {
      this.#entries.delete(token);
    } else if (reuse === 'ends-chain') {
      // Only the current token is live on the line; the one it replaces is remembered, not live.
      this.#entries.delete(token);
      if (grant.previous !== undefined) this.#retired.delete(grant.previous);
      grant.previous = token;
      this.#retired.set(token, grant);
    } else if (token === grant.current) {
      if (grant.previous !== undefined) this.#entries.delete(grant.previous);
      grant.previous = token;
    } else if (reuse === 'once') {
      // The predecessor's one reuse: it is spent, and the successor it replaced stays live as a branch.
      this.#entries.delete(token);
      grant.previous = undefined;
      this.#addBranch(grant, grant.current);
    } else {
      this.#entries.delete(grant.current);
    }
  }

  /** A branch rotates on its own: its token is spent, its successor another branch. */
  #rotateBranch(grant: Grant, token: string): string {
    grant.branches?.delete(token);
    this.#entries.delete(token);
    return this.#branch(grant);
  }

  /** A new live token of the chain, beside its current one. */
  #branch(grant: Grant): string {
    const token = this.#mint(grant);
    this.#branchesOf(grant).add(token);
    return token;
  }

  #addBranch(grant: Grant, token: string): void {
    const branches = this.#branchesOf(grant);
    branches.add(token);
    if (branches.size > MAX_BRANCHES) {
      const oldest = branches.values().next().value as string;
      branches.delete(oldest);
      this.#entries.delete(oldest);
    }
  }

  #branchesOf(grant: Grant): Set<string> {
    if (grant.branches === undefined) grant.branches = new Set();
    return grant.branches;
  }

  #store(grant: Grant): string {
    grant.current = this.#mint(grant);
    return grant.current;
  }

  #mint(grant: Grant): string {
    const body = this.#prefix + randomSecret(32);
    const token = `${body}.${this.#mac.tag(body, TAG_BYTES)}`;
    this.#entries.set(token, grant);
    return token;
  }

  /** Deletes every token of a chain. */
  #forget(grant: Grant): void {
    this.#entries.delete(grant.current);
    if (grant.previous !== undefined) {
      this.#entries.delete(grant.previous);
      this.#retired.delete(grant.previous);
    }
    for (const branch of grant.branches ?? []) this.#entries.delete(branch);
    this.#chains.delete(grant);
  }

  /** Whether `token` has this store's shape and a correct tag: it was issued here, live or not. */
  #wellTagged(token: string): boolean {
    const prefix = this.#prefix;
    if (token.length !== prefix.length + RANDOM_LENGTH + 1 + TAG_LENGTH || !token.startsWith(prefix)) return false;
    const dot = prefix.length + RANDOM_LENGTH;
    if (token.charCodeAt(dot) !== 46 /* . */) return false;
    return this.#mac.verify(token.slice(0, dot), token.slice(dot + 1), TAG_BYTES);
  }

  #evictLeastRecentlyUsed(): void {
    const oldest = this.#chains.values().next();
    if (oldest.done !== true) this.#forget(oldest.value);
  }
}
