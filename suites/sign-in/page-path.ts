/**
 * Who may generate (spec §1), tried as a person would where a browser and a user to sign in with
 * are there: open the token page, press Generate token, type the password again. No API token may
 * come of it, neither on the screen nor in the page's token response; a page that offers no
 * Generate token (it sent the browser elsewhere, as §7 asks) gives none. The hook's api-tokens
 * answer stays the contract's evidence (test-hook.md: "exactly what the Generate-token page would
 * hand the user"); this checks that the page and its sign-in server agree with it. Every token the
 * page hands out all the same goes to the run's ledger and is revoked.
 */
import type { TestContext } from '../../src/runner/test-context.js';
import type { TokenPage } from '../../src/harness/browser/token-page.js';
import { visible } from '../../src/harness/browser/token-page.js';
import { noTokenThroughPage } from '../../src/checks/page.js';
import type { Finding } from '../../src/checks/finding.js';
import type { WebUser } from '../../src/harness/browser/web.js';

/** Whether the page path can be tried: a browser, and a user to sign in with (`created`: one tack creates, with a password). */
export function pagePathOpen(t: TestContext, created = false): boolean {
  const web = t.web;
  return web.host.found.found && (created ? web.createsUsers : web.hasUser);
}

/** Generate token on `page` (signed in already as `email`), the password typed again when asked: whether any token came of it. */
export async function generateThroughPage(page: TokenPage, email: string, password: string): Promise<Finding> {
  await page.open();
  await page.settle();
  // Sent elsewhere: nothing to press. On the token page, a Generate control rendered late gets a moment.
  const offered = page.onTokenPage() && (await page.waitFor(async () => ((await visible(page.of('generate'))) ? true : undefined), 2_000));
  if (offered !== true) return noTokenThroughPage(undefined, false, page.where());
  let outcome = await page.pressGenerate();
  if (outcome.kind === 'password') outcome = await page.submitPassword(password, email);
  await page.tap.tokenCallsAnswered(3_000);
  return noTokenThroughPage(outcome, (await page.tap.issuedToken()) !== undefined, page.where());
}

/**
 * Signs `email` in at the web pages in a context of its own. False when the sign-in page refused
 * the user (the password form again, with an alert): a user who cannot sign in directly cannot
 * generate either. Any other failure throws.
 */
export async function signInAs(page: TokenPage, email: string, password: string): Promise<boolean> {
  try {
    await page.signIn(email, password);
    return true;
  } catch (error) {
    const refused = (await visible(page.of('password'))) && (await visible(page.page.getByRole('alert').first()));
    if (refused) return false;
    throw error;
  }
}

/** The run's web user signed in afresh in a context of its own (`page` undefined: the sign-in page refused the user). */
export async function signedInPage(t: TestContext): Promise<{ user: WebUser; page: TokenPage | undefined }> {
  const user = await t.web.user();
  const page = await t.web.context({ signedIn: false });
  return { user, page: (await signInAs(page, user.email, user.password)) ? page : undefined };
}
