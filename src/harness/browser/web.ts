/**
 * The web interface, as tests and the token source reach it: the run's one browser (BrowserHost),
 * the user tack signs in as, signed-in browser contexts, and the token page.
 *
 * The user (token-page.md, "Where and who"):
 * - with the hook's `users` and `passwords` capabilities, one user of tenant A per run, created with
 *   a random password and, where the hook can grant it (businesses, access), read access to the
 *   run's business, so its tokens must list that business;
 * - else TACK_USER_EMAIL with TACK_USER_PASSWORD, who by contract reads at least one business.
 *
 * The user signs in once per run (steps 1-2 of the contract's flow, in a context of its own); every
 * later context starts from that sign-in's cookies, as Playwright suites reuse a storage state.
 * TACK_USER_PASSWORD is typed no more once the sign-in page refused it (./password-guard.ts).
 *
 * Every API token a page receives goes to the run's ledger as it is read; before a context closes,
 * a token still on screen that tack has not read is read through Copy, so none is left alive.
 */
import { randomBytes } from 'node:crypto';
import type { BrowserContext, BrowserContextOptions } from 'playwright-core';
import type { TokenLedger } from '../cleanup/ledger.js';
import type { HookClient } from '../clients/hook.js';
import type { Names } from '../names.js';
import type { Readers, Reads } from '../readers.js';
import type { Redactor } from '../redactor.js';
import type { BrowserHost } from './browser-host.js';
import { PasswordGuard } from './password-guard.js';
import { type Site, TokenPage } from './token-page.js';
import { SEEN_TAP } from './visible-text.js';
import type { TargetConfig } from '../target-config.js';

export interface WebUser {
  readonly email: string;
  readonly password: string;
  /** True when tack created the user (hook); TACK_USER_EMAIL's otherwise (one wrong password per run, unless TACK_NO_WRONG_PASSWORD). */
  readonly created: boolean;
  /** What a working token of the user lists; undefined when tack cannot know (hook without businesses/access). */
  readonly reads: Reads | undefined;
}

export interface ContextOptions {
  /** Clipboard permissions: granted (read and write), or denied (`permissions: []`). Default granted. */
  readonly clipboard?: 'granted' | 'denied';
  /** Start from the run's sign-in (its cookies); default true. */
  readonly signedIn?: boolean;
  readonly proxy?: BrowserContextOptions['proxy'];
}

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/** Makes `document.execCommand('copy')` (and 'cut') report failure, without copying, in every page of a context. */
const BLOCK_EXEC_COPY = `(() => {
  const original = Document.prototype.execCommand;
  let blocked = true;
  Object.defineProperty(globalThis, '__tackAllowCopy', { value: () => { blocked = false; } });
  Document.prototype.execCommand = function (command, ...rest) {
    return blocked && /^(copy|cut)$/i.test(String(command)) ? false : original.call(this, command, ...rest);
  };
})();`;

export class Web {
  private userPromise: Promise<WebUser> | undefined;
  private statePromise: Promise<StorageState> | undefined;
  /** Contexts that outlive a test (the token source's generator). */
  readonly kept = new Set<BrowserContext>();
  /** Hosts (host:port) the browser loaded from while signing in and opening the token page. */
  readonly hostsSeen = new Set<string>();
  /** TACK_USER_PASSWORD, typed no more once refused. */
  readonly guard: PasswordGuard;
  /** The pages of the contexts still open. */
  private readonly pages = new Set<TokenPage>();

  constructor(
    readonly target: TargetConfig,
    readonly host: BrowserHost,
    private readonly redactor: Redactor,
    private readonly hook: HookClient | undefined,
    private readonly readers: Readers,
    private readonly names: Names,
    private readonly ledger: TokenLedger,
  ) {
    this.guard = new PasswordGuard(target.userPassword, target.userEmail);
  }

  get site(): Site {
    const { webUrl, identityUrl, uiSelectors } = this.target;
    const onToken = (issued: string, sent: string | undefined) => {
      if (sent === undefined) this.ledger.generated(issued, 'page', this.email);
      else this.ledger.exchanged(sent, issued);
    };
    return { webUrl, identityUrl, selectors: uiSelectors, redactor: this.redactor, waitMs: this.host.actionTimeoutMs, guard: this.guard, onToken };
  }

  /** The web user's address once known (the ledger says whose tokens it lists). */
  private email: string | undefined;

  /** A token the page showed that tack could not read: it cannot be revoked, and the report says so. */
  lostToken(reason: string): void {
    this.ledger.lost('page', this.email, reason);
  }

  /** True when tack creates its web users through the hook (users, passwords). */
  get createsUsers(): boolean {
    return this.hook?.has('users') === true && this.hook.has('passwords');
  }

  /** True when there is a user to sign in as. */
  get hasUser(): boolean {
    return this.createsUsers || (this.target.userEmail !== undefined && this.target.userPassword !== undefined);
  }

  /** The run's web user (created on first use). */
  user(): Promise<WebUser> {
    this.userPromise ??= this.makeUser().then((user) => {
      this.email = user.email;
      return user;
    });
    this.userPromise.catch(() => (this.userPromise = undefined));
    return this.userPromise;
  }

  /** A new browser context (closed after the test) and the token page in it, not yet opened. */
  async context(options: ContextOptions = {}): Promise<TokenPage> {
    const state = options.signedIn === false ? undefined : await this.signedInState();
    const context = await this.host.newContext({
      permissions: options.clipboard === 'denied' ? [] : ['clipboard-read', 'clipboard-write'],
      ...(state ? { storageState: state } : {}),
      ...(options.proxy ? { proxy: options.proxy } : {}),
      viewport: { width: 1024, height: 720 },
    });
    // What the page draws on canvases and makes into images, for what a person sees (./visible-text.ts).
    await context.addInitScript(SEEN_TAP);
    // token-page.md, "Clipboard blocked": a page's usual fallback, execCommand('copy'), fails too.
    if (options.clipboard === 'denied') await context.addInitScript(BLOCK_EXEC_COPY);
    const page = new TokenPage(context, await context.newPage(), this.site);
    this.pages.add(page);
    context.on('close', () => this.pages.delete(page));
    return page;
  }

  /** The cookies of the run's sign-in (signs in on first use). */
  signedInState(): Promise<StorageState> {
    this.statePromise ??= this.signIn();
    this.statePromise.catch(() => (this.statePromise = undefined));
    return this.statePromise;
  }

  /**
   * Closes the contexts a test opened (the runner calls it after each test), a token left on screen
   * read first. `stopped`: the test did not end by itself (stopped, out of time): its pages may be
   * mid-flow, so each is let settle first (the browser reports its requests with a delay).
   */
  async afterTest(stopped = false): Promise<void> {
    if (!this.host.launched) return;
    await this.readLeftOnScreen(
      [...this.pages].filter((p) => !this.kept.has(p.context)),
      stopped,
    );
    await this.host.closeContexts(this.kept);
  }

  /** Closes the run's browser, a token left on screen read first (`stopped`: as `afterTest`). */
  async close(stopped = false): Promise<void> {
    await this.readLeftOnScreen([...this.pages], stopped);
    this.kept.clear();
    await this.host.close();
  }

  /** A token still on a page that tack has not read goes to the ledger (or is reported unread). */
  private async readLeftOnScreen(pages: readonly TokenPage[], settle: boolean): Promise<void> {
    for (const page of pages) {
      if (settle && !page.page.isClosed() && page.page.url() !== 'about:blank') await page.settle().catch(() => undefined);
      const left = await page.leftOnScreen().catch(() => undefined);
      if (left === 'unread') this.lostToken('the page showed a token that tack could read neither from its token response nor through Copy');
      else if (left !== undefined) this.ledger.generated(left, 'page', this.email);
    }
  }

  private async signIn(): Promise<StorageState> {
    const user = await this.user();
    const page = await this.context({ signedIn: false });
    try {
      await page.signIn(user.email, user.password);
      await page.settle();
      for (const host of page.tap.hosts) this.hostsSeen.add(host);
      return await page.context.storageState();
    } finally {
      await page.context.close().catch(() => undefined);
    }
  }

  /** Whether the web user's reads will be known: TACK_USER_EMAIL's by contract, a created user's when tack can grant. */
  get knowsReads(): boolean {
    return !this.createsUsers || this.readers.canGrant;
  }

  private async makeUser(): Promise<WebUser> {
    const tenant = this.target.tenant;
    if (this.createsUsers && this.hook) {
      const email = this.names.email('web');
      const password = `tack-${randomBytes(18).toString('base64url')}`;
      this.redactor.register('password', password);
      await this.hook.createUser(tenant, { email, ...this.names.person(), signIn: 'direct', password });
      const reads = this.readers.canGrant ? await this.readers.grant(tenant, email) : undefined;
      return { email, password, created: true, reads };
    }
    const { userEmail, userPassword } = this.target;
    if (this.guard.refused) throw this.guard.refused;
    if (userEmail === undefined || userPassword === undefined) {
      const needs = 'the hook with users and passwords, or TACK_USER_EMAIL with TACK_USER_PASSWORD';
      throw new Error(`no user to sign in as (the runner should have skipped this test): needs ${needs}`);
    }
    return { email: userEmail, password: userPassword, created: false, reads: { kind: 'some' } };
  }
}
