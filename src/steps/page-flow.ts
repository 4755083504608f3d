/**
 * Steps the token-page tests share (token-page.md, "The flow the harness drives"): a signed-in
 * context on the token page, Generate token with the password typed again, the token as the page
 * handed it out, and the recording of a browser check with a screenshot of the page when it fails.
 *
 * What is a precondition (the page opens, a token appears where a test needs one to go on) throws:
 * the test ends in `error`, naming the page. What a rule demands is judged by the tests, with checks
 * from src/checks/page.ts.
 */
import { capturePage } from '../harness/browser/screenshot.js';
import { MESSAGES, type Outcome, type TokenPage, visible } from '../harness/browser/token-page.js';
import type { ContextOptions, WebUser } from '../harness/browser/web.js';
import type { TestContext } from '../runner/test-context.js';
import type { Finding } from '../checks/finding.js';
import type { RuleId } from '../rules/catalog.js';
import { outcomeText } from '../checks/page.js';
import type { Need } from '../runner/needs.js';
import { heldUnseen, type Seen } from '../harness/browser/visible-text.js';

/** What every token-page test needs: a browser, and a user tack can sign in as. */
export const PAGE_NEEDS: readonly Need[] = ['browser', 'user-password'];

/**
 * Records a browser check; when it fails, with a screenshot of the page at that step (masked, and
 * withheld when the page shows a secret). `check` stops the test on a failure, `soft` does not.
 */
export async function judge(t: TestContext, page: TokenPage, rule: RuleId, title: string, found: Finding, how: 'check' | 'soft' = 'check'): Promise<boolean> {
  // A token response still being read would register its token only after the capture looked for it.
  const received = found.ok ? false : (await page.tap.issuedToken()) !== undefined;
  const evidence = found.ok ? undefined : await capturePage(page.page, page.locators, t.redactor, title, received);
  if (how === 'soft') return t.soft(rule, title, found, evidence);
  t.check(rule, title, found, evidence);
  return true;
}

/** A new context signed in as the run's web user, on the token page with its Generate control (precondition). */
export async function onTokenPage(t: TestContext, options: ContextOptions = {}): Promise<{ page: TokenPage; user: WebUser }> {
  const user = await t.web.user();
  const page = await t.web.context(options);
  await page.openSignedIn(user.email, user.password);
  await requireTokenPage(page);
  return { page, user };
}

/** The browser is on the token page and its Generate control is there (precondition). */
export async function requireTokenPage(page: TokenPage): Promise<void> {
  const ready = await page.waitFor(async () => (page.onTokenPage() && (await visible(page.of('generate'))) ? true : undefined));
  if (!ready) throw new Error(`the token page did not open with its Generate token control: the browser is at ${page.where()}`);
}

/** Generate token, then the password when the page asks for it again: what the page shows after. */
export async function generate(page: TokenPage, user: WebUser): Promise<Outcome> {
  const first = await page.pressGenerate();
  return first.kind === 'password' ? page.submitPassword(user.password, user.email) : first;
}

/** Generates a token and insists that it is shown (precondition for the tests that judge a shown token). */
export async function generateShown(page: TokenPage, user: WebUser): Promise<void> {
  const outcome = await generate(page, user);
  if (outcome.kind !== 'token') throw new Error(`no token appeared after Generate token and the password: ${outcomeText(outcome)}`);
}

/** The token the page handed out (its token response, else the clipboard); a precondition. */
export async function realToken(page: TokenPage): Promise<{ token: string; how: string }> {
  const real = await page.realToken();
  if (real === undefined) throw new Error("a token is shown, but tack could read it neither from the page's token response nor through Copy");
  return real;
}

/**
 * A canvas or an image on screen that tack cannot read (./visible-text.ts) may show the token: the
 * part of `rule` judged on what a person sees is then not verified, naming them.
 */
export function unreadable(t: TestContext, rule: RuleId, title: string, seen: Seen): void {
  if (seen.unreadable.length === 0) return;
  t.unverified(rule, title, `the page shows ${seen.unreadable.join(', ')}, which tack cannot read: whether it shows the token cannot be told`);
}

/**
 * The full token in the page where a person does not see it (a copy helper off the page or
 * transparent, a field out of sight, an attribute, a script; ./visible-text.ts `held`): what
 * counts is what a person sees, so this is an observation on `rule`, never a failure.
 */
export function heldOutOfSight(t: TestContext, rule: RuleId, when: string, seen: Seen, token: string): void {
  if (heldUnseen(seen, token))
    t.observe(rule, `${when}: the full token is in the page where a person does not see it (hidden text, a field out of sight, markup)`);
}

/** The text of what the page shows as messages (status, alert, live regions) and any of spec §7's, for the report. */
export async function shownMessages(page: TokenPage): Promise<string[]> {
  const regions = await page.page
    .locator('[role=status], [role=alert], [aria-live]')
    .allInnerTexts()
    .catch(() => [] as string[]);
  const seen = regions.map((s) => s.trim()).filter((s) => s !== '');
  for (const text of Object.values(MESSAGES)) if (!seen.includes(text) && (await visible(page.locators.message(text)))) seen.push(text);
  return seen.map((s) => s.slice(0, 200));
}

/**
 * Waits for an exact message of spec §7: true as soon as it shows; false once the page shows another
 * message instead (given half a second to settle), or a token where `orToken` (a page that handed
 * one out instead), or when nothing shows within the page's wait.
 */
export async function waitForMessage(page: TokenPage, text: string, ms?: number, orToken = false): Promise<boolean> {
  let otherSince: number | undefined;
  const shown = await page.waitFor(async () => {
    if (await visible(page.locators.message(text))) return true;
    if (orToken && page.onTokenPage() && (await visible(await page.locators.token()))) return false;
    if ((await shownMessages(page)).length === 0) otherSince = undefined;
    else if (otherSince === undefined) otherSince = Date.now();
    else if (Date.now() - otherSince > 500) return false;
    return undefined;
  }, ms);
  return shown ?? false;
}
