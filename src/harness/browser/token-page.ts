/**
 * The token page as a person uses it (token-page.md, "The flow the harness drives"), one method per
 * step: open it, sign in, press Generate token, type the password again, copy. Each step waits for
 * what the page does next and says where the browser ended up; what the steps find is judged by the
 * tests (suites/token-page/), never here.
 *
 * Error messages name pages by origin and path only: a query may carry a one-time code.
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import type { Redactor } from '../redactor.js';
import { Locators, type Selectors } from './locators.js';
import type { PasswordGuard } from './password-guard.js';
import { type AuthorizationRequest, TrafficTap } from './tap.js';
import type { UiSelectorKey } from '../target-config.js';
import { PATHS } from '../../spec.js';
import { type Seen, seeOnPage, seenText, shownBy } from './visible-text.js';

/** The interface messages of spec §7, word for word. */
export const MESSAGES = {
  signinUnreachable: "Couldn't start API token generation. Try again.",
  cancelled: 'API token generation was cancelled.',
  noToken: 'The API token could not be generated.',
  copyBlocked: "Couldn't copy the token. Select it and copy it manually.",
  cleared: "API token cleared from the screen. If you didn't copy it, generate a new one.",
} as const;

export interface Site {
  /** Origin of tenant A's web interface (TACK_WEB_URL). */
  readonly webUrl: string;
  readonly identityUrl: string;
  readonly selectors: Selectors;
  readonly redactor: Redactor;
  /** How long one wait for the page may take, in ms. */
  readonly waitMs: number;
  /** TACK_USER_PASSWORD is typed no more once the sign-in page refused it. */
  readonly guard?: PasswordGuard;
  /** Every API token the page receives (the run's ledger); `sent`: the token exchanged for it. */
  readonly onToken?: (issued: string, sent: string | undefined) => void;
}

export function tokenPageUrl(site: Pick<Site, 'webUrl'>): string {
  return `${site.webUrl}${PATHS.tokenPage}`;
}

export function tokenEndpoint(site: Pick<Site, 'identityUrl'>): string {
  return `${site.identityUrl}${PATHS.exchange}`;
}

/** What the page shows after a step. */
export type Outcome =
  | { readonly kind: 'password'; readonly where: string }
  | { readonly kind: 'token'; readonly where: string }
  | { readonly kind: 'message'; readonly where: string; readonly text: string }
  | { readonly kind: 'nothing'; readonly where: string };

export class TokenPage {
  readonly locators: Locators;
  readonly tap: TrafficTap;

  constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    readonly site: Site,
  ) {
    this.locators = new Locators(page, site.selectors);
    this.tap = new TrafficTap(context, tokenEndpoint(site), site.redactor, site.onToken);
  }

  get url(): string {
    return tokenPageUrl(this.site);
  }

  /** Where the browser is: origin and path, never the query. */
  where(): string {
    return describeUrl(this.page.url());
  }

  /** True when the browser is on the token page (origin and path). */
  onTokenPage(): boolean {
    const here = safeUrl(this.page.url());
    const page = new URL(this.url);
    return here !== undefined && here.origin === page.origin && here.pathname.replace(/\/+$/, '') === page.pathname;
  }

  of(key: Exclude<UiSelectorKey, 'token'>): Locator {
    return this.locators.of(key);
  }

  async open(): Promise<void> {
    await this.step(`open ${this.url}`, () => this.page.goto(this.url, { waitUntil: 'load' }));
  }

  /**
   * Steps 1-2: opens the token page; when the target asks for a sign-in, fills the user name (when
   * the form has one) and the password and submits. Ends on the web origin; throws, naming the
   * page, when the browser does not come back.
   */
  async signIn(email: string, password: string): Promise<void> {
    await this.open();
    // A sign-in form, or the token page itself (already signed in); a page that renders late gets a moment.
    const seen = await this.waitFor(async () => {
      if (await visible(this.of('password'))) return 'form';
      return this.onWebOrigin() && (await visible(this.of('generate'))) ? 'in' : undefined;
    }, 2_000);
    if (seen === 'in' || (seen === undefined && this.onWebOrigin())) return;
    if (seen === undefined) throw new Error(`opening the token page led to ${this.where()}, which shows no password field to sign in with`);
    const username = this.of('username');
    this.site.guard?.before(password);
    if ((await visible(username)) && (await username.isEditable())) await this.step('fill the user name', () => username.fill(email));
    await this.step('fill the password', () => this.of('password').fill(password));
    const before = this.page.url();
    await this.pressSubmit();
    // Back on the web origin; or refused: the form again, with an alert, on the page the submit led to.
    const back = await this.waitFor(async () => {
      if (this.onWebOrigin() && !(await visible(this.of('password')))) return true;
      const refused = this.page.url() !== before && (await visible(this.of('password'))) && (await visible(this.page.getByRole('alert').first()));
      return refused ? false : undefined;
    });
    if (back !== true) {
      const origin = new URL(this.site.webUrl).origin;
      const what = `the browser is at ${this.where()}${await this.shownText()}`;
      const blame = (await this.askedAgain(before)) ? 'password' : 'page';
      throw (
        this.site.guard?.notTaken(password, `not back at ${origin}: ${what}`, blame) ??
        new Error(`signing in as ${email} did not lead back to ${origin}: ${what}`)
      );
    }
    await this.page.waitForLoadState('load');
  }

  /** The page asks for the password again after the form was sent: it moved on from `before`, or says why (an alert). */
  private async askedAgain(before: string): Promise<boolean> {
    if (!(await visible(this.of('password')))) return false;
    return this.page.url() !== before || (await visible(this.page.getByRole('alert').first()));
  }

  /** On the sign-in server: off the web origin, or under the sign-in server's address where the two share a host. */
  private onSignInServer(): boolean {
    return !this.onWebOrigin() || this.page.url().startsWith(`${this.site.identityUrl}/`);
  }

  /**
   * Opens the token page with the run's sign-in; where the target asks for a sign-in again (its
   * session ended since), signs in first.
   */
  async openSignedIn(email: string, password: string): Promise<void> {
    await this.open();
    if (!this.onTokenPage() && (await visible(this.of('password')))) await this.signIn(email, password);
  }

  /** Step 3: presses Generate token; says whether a password is asked for, a token shown or a message. */
  async pressGenerate(): Promise<Outcome> {
    const before = this.page.url();
    const shown = this.onTokenPage() && (await visible(await this.locators.token()));
    await this.clickGenerate();
    return this.outcome({ leaving: before, tokenShown: shown });
  }

  /** Whether Generate token was pressed on this page (only then can a new token be on it). */
  private generated = false;

  /** Presses Generate token and returns at once. */
  async clickGenerate(): Promise<void> {
    this.tap.reset();
    this.generated = true;
    const generate = this.of('generate');
    if (!(await this.waitFor(async () => ((await visible(generate)) ? true : undefined)))) {
      throw new Error(`no Generate token control on ${this.where()} (locator "generate"; TACK_UI_SELECTORS can name it)`);
    }
    await this.step('press Generate token', () => generate.click());
  }

  /**
   * Step 3, second half: types the password at the re-authentication page (and `email` where the
   * page asks for a user name and shows none) and submits. For TACK_USER_PASSWORD, a step that does
   * not end back on the web interface (the password field again, a page without a form on the
   * sign-in server) throws TACK_ERR_USER_PASSWORD (or TACK_ERR_SIGN_IN_REFUSED): never typed again this run.
   */
  async submitPassword(password: string, email: string): Promise<Outcome> {
    const before = this.page.url();
    await this.typePassword(password, email);
    const outcome = await this.outcome({ leaving: before });
    await this.signedInAfter(password, outcome, before);
    return outcome;
  }

  /**
   * After `password` was typed at re-authentication from the page at `before`: throws the password
   * guard's error when the step did not end signed in (a token, a message of spec §7 or the web
   * interface show it did), blaming the password only when the page asked for it again. Nothing for
   * a password the guard does not keep (a user tack created, the deliberate wrong one).
   */
  async signedInAfter(password: string, outcome: Outcome, before: string): Promise<void> {
    if (outcome.kind === 'token' || outcome.kind === 'message' || (outcome.kind === 'nothing' && !this.onSignInServer())) return;
    const blame = (await this.askedAgain(before)) ? 'password' : 'page';
    const what = outcome.kind === 'password' ? 'the password field came back' : 'no password field, no token, no message';
    const refused = this.site.guard?.notTaken(password, `typed again after Generate token, ${what} at ${outcome.where}${await this.shownText()}`, blame);
    if (refused) throw refused;
  }

  /**
   * Types the password at the re-authentication page, submits, and returns at once. Where the page
   * asks for a user name too and shows none, `email` is filled in, as a person would.
   */
  async typePassword(password: string, email: string): Promise<void> {
    this.site.guard?.before(password);
    const username = this.of('username');
    if ((await visible(username)) && (await username.isEditable()) && (await username.inputValue().catch(() => '')).trim() === '') {
      await this.step('fill the user name', () => username.fill(email));
    }
    await this.step('fill the password again', () => this.of('password').fill(password));
    await this.pressSubmit();
  }

  private async pressSubmit(): Promise<void> {
    const submit = this.of('submit');
    if (!(await visible(submit))) throw new Error(`no sign-in button on ${this.where()} (locator "submit"; TACK_UI_SELECTORS can name it)`);
    await this.step('press the sign-in button', () => submit.click());
  }

  /** The authorization request that brought the browser to the sign-in page: from its URL, else from the traffic. */
  authorizationRequest(): AuthorizationRequest | undefined {
    const url = safeUrl(this.page.url());
    const redirectUri = url?.searchParams.get('redirect_uri');
    const state = url?.searchParams.get('state');
    if (redirectUri && state) return { redirectUri, state };
    return this.tap.lastAuthorization;
  }

  /** Waits until the page has no request in flight for `quietMs` (at most `maxMs`). */
  async settle(quietMs = 300, maxMs = 3_000): Promise<void> {
    await this.tap.idle(quietMs, maxMs);
  }

  /** What a person sees on the page (./visible-text.ts). */
  seen(): Promise<Seen> {
    return seeOnPage(this.page);
  }

  /** What a person sees on the page, as one text. */
  async text(): Promise<string> {
    return seenText(await this.seen());
  }

  /** Presses the copy control (nothing is read back). */
  async pressCopy(): Promise<void> {
    await this.step('press Copy', () => this.of('copy').click());
  }

  /**
   * Copy: writes a marker to the clipboard, presses the copy control, and reads the clipboard until
   * it changes (the context must be granted clipboard-read and -write). Undefined when nothing
   * was written.
   */
  async copy(): Promise<string | undefined> {
    const marker = `tack-clipboard-marker-${Math.random().toString(36).slice(2)}`;
    await this.page.evaluate(`navigator.clipboard.writeText(${JSON.stringify(marker)})`);
    await this.pressCopy();
    const copied = await this.waitFor(async () => {
      const text = await this.page.evaluate<string>('navigator.clipboard.readText()');
      return text !== marker ? text : undefined;
    }, 3_000);
    // The bare token: a copy with a line break around it contains it, so redacting it covers both.
    if (copied !== undefined && copied.trim() !== '') this.site.redactor.register('api-token', copied.trim());
    return copied;
  }

  /**
   * Before the context closes: a token still on the page that tack did not see in the page's token
   * response (a page that redeems its code server-side, a refused clipboard) is read through Copy,
   * with the clipboard allowed, so it can be revoked. Undefined when there is none; `unread` when a
   * token is shown that tack could not read.
   */
  async leftOnScreen(): Promise<string | 'unread' | undefined> {
    if (!this.generated) return undefined;
    await this.tap.tokenCallsAnswered(3_000);
    if (this.tap.tokenSeen || this.page.isClosed() || !this.onTokenPage() || !(await visible(await this.locators.token()))) return undefined;
    await this.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(this.site.webUrl).origin }).catch(() => undefined);
    // A context that blocked execCommand('copy') (web.ts) lets a page's fallback copy again.
    await this.page.evaluate('globalThis.__tackAllowCopy?.()').catch(() => undefined);
    const copied = (await this.copy().catch(() => undefined))?.trim();
    return copied === undefined || copied === '' ? 'unread' : copied;
  }

  /** The token as the page handed it out: from its token response when seen, else from the clipboard. */
  async realToken(): Promise<{ token: string; how: 'token response' | 'clipboard' } | undefined> {
    const issued = await this.tap.issuedToken();
    if (issued !== undefined) return { token: issued, how: 'token response' };
    const copied = await this.copy();
    return copied === undefined || copied === '' ? undefined : { token: copied, how: 'clipboard' };
  }

  /** Polls `probe` every 100 ms until it returns a value or `ms` pass. */
  async waitFor<T>(probe: () => Promise<T | undefined>, ms = this.site.waitMs): Promise<T | undefined> {
    const until = Date.now() + ms;
    for (;;) {
      try {
        const value = await probe();
        if (value !== undefined) return value;
      } catch {
        /* the page is navigating: try again */
      }
      if (Date.now() >= until) return undefined;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /**
   * Waits for what the page does: a password field (the re-authentication page), the token on the
   * token page, or one of the messages of spec §7. With `leaving` (the URL before a click that may
   * navigate), a password field still on the page acted on does not count until the browser has
   * moved on; a message or a token shown in place does (a token already shown before the click,
   * `tokenShown`, only once the page has fetched a new one or moved).
   */
  async outcome(options: { leaving?: string; tokenShown?: boolean; ms?: number } = {}): Promise<Outcome> {
    const before = options.leaving;
    const found = await this.waitFor(async (): Promise<Outcome | undefined> => {
      const where = this.where();
      const moved = before === undefined || this.page.url() !== before;
      // A new token first: a page may show a message beside it (a copy hint), and the token is what came of the step.
      const fresh = moved || !options.tokenShown || this.tap.tokenRequests > 0;
      // A token element that shows nothing (an empty box the page always renders) is no token.
      if (fresh && this.onTokenPage() && (await shows(await this.locators.token()))) return { kind: 'token', where };
      for (const text of Object.values(MESSAGES)) if (await visible(this.locators.message(text))) return { kind: 'message', where, text };
      if (moved && (await visible(this.of('password')))) return { kind: 'password', where };
      return undefined;
    }, options.ms);
    if (found) return found;
    return before !== undefined ? this.outcome({ ms: 0 }) : { kind: 'nothing', where: this.where() };
  }

  private onWebOrigin(): boolean {
    return safeUrl(this.page.url())?.origin === new URL(this.site.webUrl).origin;
  }

  private async alertText(): Promise<string> {
    const alert = this.page.getByRole('alert').first();
    const text = (await visible(alert)) ? await alert.innerText().catch(() => '') : '';
    return text === '' ? '' : `, showing "${text.slice(0, 160)}"`;
  }

  /** What the page says, for an error: its alert, else its heading (a page without a form may have no alert). */
  private async shownText(): Promise<string> {
    const alert = await this.alertText();
    if (alert !== '') return alert;
    const heading = this.page.getByRole('heading').first();
    const text = (await visible(heading)) ? (await heading.innerText().catch(() => '')).trim() : '';
    return text === '' ? '' : `, showing "${scrub(text.slice(0, 160))}"`;
  }

  /** Runs one Playwright step; its error is rethrown naming the step and the page, without a query. */
  private async step<T>(what: string, action: () => Promise<T>): Promise<T> {
    try {
      return await action();
    } catch (error) {
      throw new Error(`${what} on ${this.where()}: ${scrub(error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error))}`);
    }
  }
}

export async function visible(locator: Locator): Promise<boolean> {
  return locator.isVisible().catch(() => false);
}

/** Visible, and showing something: text, or a value in it or in a form field inside it. */
export async function shows(locator: Locator): Promise<boolean> {
  if (!(await visible(locator))) return false;
  if ((await shownBy(locator)) !== '') return true;
  const values = await locator
    .first()
    .locator('input, textarea')
    .evaluateAll((fields: unknown[]) => fields.map((f) => String((f as { value?: unknown }).value ?? '')))
    .catch(() => [] as string[]);
  return values.some((v) => v.trim() !== '');
}

export function describeUrl(url: string): string {
  const u = safeUrl(url);
  return u === undefined ? '(no page)' : `${u.origin}${u.pathname}`;
}

/** URLs in a text lose their query and fragment (they may hold a one-time code). */
export function scrub(text: string): string {
  return text.replace(/(https?:\/\/[^\s"'?#]+)[?#][^\s"']*/g, '$1?…');
}

function safeUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}
