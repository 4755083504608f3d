/**
 * API tokens tack generates itself through the token page, for a target without a test hook
 * (TACK_USER_EMAIL with TACK_USER_PASSWORD): sign in, Generate token, the password again, and the
 * token as the page hands it out. One signed-in context serves the whole run; each token is one more
 * pass through the page. These tokens are tack's own, so destructive steps (revoke, reuse after
 * rotation, near copies) may be done to them; the token file is never one of them.
 */
import type { Reads } from '../readers.js';
import type { TokenPage } from './token-page.js';
import type { Web } from './web.js';

export class PageTokens {
  private page: Promise<TokenPage> | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly web: Web) {}

  /** Whether tokens can come from the page: a browser and a user to sign in as. */
  get available(): boolean {
    return this.web.host.found.found && this.web.hasUser;
  }

  /** The user the page generates for. */
  async email(): Promise<string> {
    return (await this.web.user()).email;
  }

  /** Whether `reads()` will know what the user's tokens list, before the user exists. */
  get knowsReads(): boolean {
    return this.web.knowsReads;
  }

  /** What that user's working tokens list (undefined when tack cannot know). */
  async reads(): Promise<Reads | undefined> {
    return (await this.web.user()).reads;
  }

  /** One new API token of the web user, generated through the page (one at a time). */
  generate(): Promise<{ token: string; email: string }> {
    const next = this.queue.then(() => this.generateNow());
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async generateNow(): Promise<{ token: string; email: string }> {
    const user = await this.web.user();
    const page = await this.session();
    await page.openSignedIn(user.email, user.password);
    let outcome = await page.pressGenerate();
    if (outcome.kind === 'password') {
      // TACK_USER_PASSWORD that did not end signed in throws (./password-guard.ts): the page is dropped all the same.
      outcome = await page.submitPassword(user.password, user.email).catch(async (error: unknown) => {
        await this.drop(page);
        throw error;
      });
    }
    if (outcome.kind !== 'token') {
      await this.drop(page);
      const seen = outcome.kind === 'message' ? `the message "${outcome.text}"` : outcome.kind === 'password' ? 'a password field again' : 'no token';
      const what = `after Generate token and the password, the browser is at ${outcome.where} showing ${seen}`;
      throw new Error(`generating an API token through the token page failed: ${what}`);
    }
    const real = await page.realToken();
    await page.page.goto('about:blank').catch(() => undefined); // nothing keeps the token on screen, counting down
    if (real === undefined) {
      const why = "the token page showed a token, but tack could read it neither from the page's token response nor through Copy";
      this.web.lostToken(why);
      throw new Error(why);
    }
    return { token: real.token, email: user.email };
  }

  /** A generation that gave no token: the page is closed (a token it received all the same goes to the ledger first); the next starts afresh. */
  private async drop(page: TokenPage): Promise<void> {
    this.page = undefined;
    await page.tap.tokenCallsAnswered(3_000);
    await page.context.close().catch(() => undefined);
  }

  private session(): Promise<TokenPage> {
    this.page ??= (async () => {
      const page = await this.web.context();
      this.web.kept.add(page.context);
      page.context.on('close', () => {
        this.web.kept.delete(page.context);
        this.page = undefined;
      });
      return page;
    })();
    return this.page;
  }
}
