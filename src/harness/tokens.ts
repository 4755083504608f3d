/**
 * Where personal API tokens come from. A *chain* is one API token and its rotations: each
 * successful exchange replaces the current token with the returned refresh_token.
 *
 * - Hook mode: every chain belongs to a fresh directly-signed-in user tack creates; destructive
 *   steps (revoke, disable, reusing a rotated-out token) are allowed on it.
 * - Hookless mode: the one chain held in TACK_API_TOKEN_FILE. Each rotation is written to the file
 *   before the new token is used; nothing destructive is ever done to it.
 * - Tokens tack owns without the hook (`own()`): with TACK_USER_EMAIL, TACK_USER_PASSWORD and a
 *   browser, tack generates disposable tokens through the token page (browser/page-tokens.ts).
 *   They are never the token file's.
 *
 * Every token tack generates, the hook's and the page's, is in the run's ledger (cleanup/ledger.ts)
 * before it is used, and revoked when the run ends; the token file's chain never is.
 */
import type { TokenLedger } from './cleanup/ledger.js';
import type { Exchanged, IdentityClient } from './clients/identity.js';
import type { PageTokens } from './browser/page-tokens.js';
import type { HookClient } from './clients/hook.js';
import { TokenFileLock } from './lock.js';
import type { Names } from './names.js';
import type { Readers, Reads } from './readers.js';
import { readTokenFile, writeTokenFileAtomic } from './token-file.js';

export class TokenChain {
  private token: string;
  /** Tokens this chain held before, oldest first (never printed; redacted if they are). */
  readonly previous: string[] = [];

  constructor(
    private readonly identity: IdentityClient,
    readonly email: string,
    readonly tenant: string,
    first: string,
    /** True when tack created the token itself, so destructive steps are allowed. */
    readonly owned: boolean,
    private readonly persist?: (token: string) => void,
    /** Hookless mode: the token file's lock, held around each rotation. */
    private readonly lock?: TokenFileLock,
  ) {
    this.token = first;
  }

  /** Hookless mode: the exchange in flight; the next one waits for it (see `exchange`). */
  private inFlight: Promise<unknown> = Promise.resolve();

  get current(): string {
    return this.token;
  }

  /**
   * Exchanges the current token; a returned refresh_token becomes current (stored first).
   * The token file's chain exchanges one at a time: two exchanges of one token at once (a test the
   * runner gave up on, still running next to the following one) would fork the only chain.
   */
  exchange(options: { headers?: Record<string, string> } = {}): Promise<Exchanged> {
    if (this.owned) return this.exchangeNow(options);
    const next = this.inFlight.then(() => this.exchangeNow(options));
    this.inFlight = next.catch(() => undefined);
    return next;
  }

  private async exchangeNow(options: { headers?: Record<string, string> }): Promise<Exchanged> {
    const landed = this.lock?.begin();
    try {
      const result = await this.identity.exchange(this.token, options);
      if (result.res.status === 200 && result.refreshToken !== undefined && result.refreshToken !== this.token) {
        this.persist?.(result.refreshToken);
        this.previous.push(this.token);
        if (this.previous.length > 16) this.previous.shift();
        this.token = result.refreshToken;
      }
      return result;
    } finally {
      landed?.();
    }
  }
}

export class TokenSource {
  private held: TokenChain | undefined;
  /** The one chain of a run whose only source of API tokens is the token page (see `chain()`). */
  private pageHeld: Promise<TokenChain> | undefined;
  private locking: Promise<TokenFileLock> | undefined;

  constructor(
    private readonly identity: IdentityClient,
    private readonly hook: HookClient | undefined,
    private readonly names: Names,
    private readonly tenant: string,
    private readonly hookless: { userEmail: string; tokenFile: string } | undefined,
    private readonly readers: Readers,
    /** Where the tokens tack generates are listed until revoked; the token file's is marked the user's. */
    private readonly ledger: TokenLedger,
    /** The token page, when tack can generate tokens there (a browser and a user to sign in as). */
    private readonly page?: PageTokens,
  ) {}

  /**
   * A chain whose user reads data its working access tokens must list: a fresh user of the hook
   * given read access to the run's business, or the token file's user (who reads at least one
   * business, by the contract of TACK_USER_EMAIL). Undefined when there is none (see NO_READER).
   */
  async reader(options: { tenant?: string } = {}): Promise<{ chain: TokenChain; reads: Reads } | undefined> {
    if (this.fromHook && this.readers.canGrant) {
      const chain = await this.own(options);
      return { chain, reads: await this.readers.grant(chain.tenant, chain.email) };
    }
    if (this.hookless && options.tenant === undefined) return { chain: await this.chain(), reads: { kind: 'some' } };
    if (this.fromPageOnly && options.tenant === undefined) {
      const reads = await this.page!.reads();
      if (reads !== undefined) return { chain: await this.chain(), reads };
    }
    return undefined;
  }

  /** True when `reader()` finds a chain. */
  get hasReader(): boolean {
    return (this.fromHook && this.readers.canGrant) || this.hookless !== undefined || (this.fromPageOnly && this.page!.knowsReads);
  }

  /**
   * True when the token page is the only source of API tokens: no hook that makes them, no token
   * file, but a browser and a user to sign in as (TACK_USER_EMAIL with TACK_USER_PASSWORD).
   */
  get fromPageOnly(): boolean {
    return !this.fromHook && this.hookless === undefined && (this.page?.available ?? false);
  }

  /** True when chains come from the hook (fresh users, destructive steps allowed). */
  get fromHook(): boolean {
    return this.hook?.has('users') === true && this.hook.has('api-tokens');
  }

  /** True when `own()` gives tokens tack owns: from the hook, or generated through the token page. */
  get canOwn(): boolean {
    return this.fromHook || (this.page?.available ?? false);
  }

  /**
   * A chain tack owns whose user reads data: a fresh hook user given read access, or a token the page
   * generated for the web user. `reads` is undefined when tack cannot know what that user reads.
   */
  async ownReader(): Promise<{ chain: TokenChain; reads: Reads | undefined }> {
    if (this.fromHook) {
      const chain = await this.own();
      return { chain, reads: this.readers.canGrant ? await this.readers.grant(chain.tenant, chain.email) : undefined };
    }
    const chain = await this.own();
    return { chain, reads: await this.page?.reads() };
  }

  /** A chain for a token the page handed out (token-page suites, the page generator): listed, and revoked when the run ends. */
  adopt(token: string, email: string): TokenChain {
    this.ledger.generated(token, 'page', email);
    return new TokenChain(this.identity, email, this.tenant, token, true);
  }

  /**
   * A chain to exchange: a fresh user's token (hook), the token file's chain (hookless), or else one
   * token generated through the token page for the whole run (tenant A's, like the token file's;
   * revoked at the end like every token tack generates).
   */
  async chain(options: { tenant?: string } = {}): Promise<TokenChain> {
    if (this.fromHook) return this.own(options);
    if (!this.hookless && this.fromPageOnly) {
      this.pageHeld ??= this.own();
      return this.pageHeld;
    }
    if (!this.hookless) throw new Error('no source of API tokens (the runner should have skipped this test)');
    if (!this.held) {
      const path = this.hookless.tokenFile;
      // Held until close(): no other tack process may rotate this file's token meanwhile.
      this.locking ??= TokenFileLock.acquire(path);
      const lock = await this.locking;
      if (!this.held) {
        const token = readTokenFile(path);
        this.ledger.userToken(token); // the user's: never revoked, nor what its exchanges return
        this.held = new TokenChain(this.identity, this.hookless.userEmail, this.tenant, token, false, (t) => writeTokenFileAtomic(path, t), lock);
      }
    }
    return this.held;
  }

  /**
   * Releases the token file's lock (hookless mode), once an exchange of it still in flight (a test
   * the runner gave up on) has stored its answer: the answer holds the only copy of the new token.
   */
  async close(): Promise<void> {
    const lock = await this.locking?.catch(() => undefined);
    if (lock) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([lock.idle(), new Promise((resolve) => (timer = setTimeout(resolve, 30_000)))]);
      clearTimeout(timer);
    }
    await lock?.release();
    this.locking = undefined;
    this.held = undefined;
  }

  /**
   * A new API token tack owns: with the hook, of a fresh directly-signed-in user of `tenant` (or of
   * `email`); without it, generated through the token page for the web user (tenant A only).
   */
  async own(options: { tenant?: string; email?: string } = {}): Promise<TokenChain> {
    if (!this.fromHook && this.page?.available && (options.tenant ?? this.tenant) === this.tenant) {
      const web = await this.page.email();
      if (options.email !== undefined && options.email !== web) throw new Error(`the token page generates tokens for ${web} only, not ${options.email}`);
      const { token, email } = await this.page.generate();
      return this.adopt(token, email);
    }
    const hook = this.requireHook();
    const tenant = options.tenant ?? this.tenant;
    const email = options.email ?? this.names.email('token');
    if (options.email === undefined) await hook.createUser(tenant, { email, ...this.names.person(), signIn: 'direct' });
    const token = await hook.apiToken(tenant, email);
    return new TokenChain(this.identity, email, tenant, token, true);
  }

  private requireHook(): HookClient {
    if (!this.fromHook || !this.hook) {
      throw new Error('this step needs the test hook with users and api-tokens, or the token page (the runner should have skipped it)');
    }
    return this.hook;
  }
}
