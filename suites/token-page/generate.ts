/**
 * Generating a token, as a person does it, and what the page does with it (spec §1, §3, §5, §7):
 *
 * - TOKEN-PAGE-REAUTH: Generate token leads to a page that asks for the password again and shows who
 *   is signed in, before any token exists; one wrong password is typed there first and must get no
 *   token (for a user tack created, and for TACK_USER_EMAIL: the only failed sign-in a healthy run
 *   makes, never at the first sign-in; TACK_NO_WRONG_PASSWORD turns it off, and then that part is
 *   not checked); with the password, the token appears.
 * - TOKEN-PAGE-COPY: Copy puts exactly the token the page received on the clipboard, whole, and the
 *   page does not then say that the copy failed.
 * - TOKEN-PAGE-SHOWN-ONCE: a reload shows it no more, for 5 s of the page's own time (no token
 *   element, neither its masked form nor its full value anywhere a person sees).
 * - TOKEN-PAGE-NO-LIST: with that live token of the user in existence, the reloaded page lists no
 *   tokens (as a list, a table or rows of any markup naming it) and offers no control to revoke,
 *   delete or disable one (navigation menus left out).
 * - TOKEN-PAGE-OWNER: the token is the signed-in user's (./owner.ts).
 *
 * One generation serves the five rules: each costs a pass through three pages. Every verdict is soft,
 * so one rule's failure never hides another's; only what the next steps need (a token on the page)
 * is a precondition.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { TokenPage } from '../../src/harness/browser/token-page.js';
import { visible } from '../../src/harness/browser/token-page.js';
import type { WebUser } from '../../src/harness/browser/web.js';
import type { TestContext } from '../../src/runner/test-context.js';
import type { TestCase } from '../../src/runner/test-case.js';
import {
  asksForPassword,
  copiedSomething,
  noCopyFailure,
  noRevokeControl,
  noTokenList,
  notShownAgain,
  noTokenShown,
  outcomeText,
  sameToken,
  showsUser,
  tokenShown,
} from '../../src/checks/page.js';
import { judgeOwner } from './owner.js';
import { heldOutOfSight, judge, onTokenPage, PAGE_NEEDS, unreadable } from '../../src/steps/page-flow.js';
import { MESSAGES } from '../../src/harness/browser/token-page.js';
import { seenElement, shownBy, tokenLists } from '../../src/harness/browser/visible-text.js';
import type { TestPart } from '../../src/runner/needs.js';

const REVOKE = /revoke|delete|remove|invalidate|disable|deactivate/i;

/**
 * One wrong password at re-authentication per run: for a user tack created, and for TACK_USER_EMAIL
 * too (the only failed sign-in a healthy run makes; never at the first sign-in; TACK_NO_WRONG_PASSWORD
 * turns it off, and then this part is not checked).
 */
const WRONG_PASSWORD: TestPart = {
  rule: 'TOKEN-PAGE-REAUTH',
  title: 'a wrong password gets no token (typed once per run, at re-authentication)',
  needs: ['wrong-password'],
};

export const generateToken: TestCase = {
  id: 'token-page/generate',
  title: "Generate token asks for the password again; Copy gives the token whole; a reload shows it no more, and lists none; it is the user's",
  rules: ['TOKEN-PAGE-REAUTH', 'TOKEN-PAGE-COPY', 'TOKEN-PAGE-SHOWN-ONCE', 'TOKEN-PAGE-NO-LIST', 'TOKEN-PAGE-OWNER'],
  needs: PAGE_NEEDS,
  parts: [WRONG_PASSWORD],
  async run(t) {
    const { page, user } = await onTokenPage(t);
    await reauthenticate(t, page, user);
    const masked = await shownBy(await page.locators.token());

    const issued = await page.tap.issuedToken();
    const copied = await page.copy();
    await judge(t, page, 'TOKEN-PAGE-COPY', 'Copy puts text on the clipboard', copiedSomething(copied), 'soft');
    if (copied !== undefined && copied.trim() !== '') {
      // The page's answer to a write that worked may come a moment after the clipboard changed.
      const failure = await page.waitFor(async () => ((await visible(page.locators.message(MESSAGES.copyBlocked))) ? true : undefined), 500);
      await judge(t, page, 'TOKEN-PAGE-COPY', 'the page after a Copy that worked', noCopyFailure(failure === true, MESSAGES.copyBlocked), 'soft');
    }
    if (issued !== undefined) {
      await judge(t, page, 'TOKEN-PAGE-COPY', 'the clipboard after Copy holds the token the page received', sameToken(copied, issued), 'soft');
    } else t.observe('TOKEN-PAGE-COPY', 'the page redeemed no code in the browser: the copied value is taken as the token, and must exchange');
    const token = issued ?? copied;
    if (token === undefined || token === '') throw new Error("tack could read the token neither from the page's token response nor through Copy");

    await afterReload(t, page, token, masked);
    await page.page.goto('about:blank'); // the page's part is done: nothing keeps counting down
    await judgeOwner(t, user, t.tokens.adopt(token, user.email), issued === undefined);
  },
};

/** Generate token, the password again (a wrong one first for a user tack created); ends with the token on the page (precondition). */
async function reauthenticate(t: TestContext, page: TokenPage, user: WebUser): Promise<void> {
  const rule = 'TOKEN-PAGE-REAUTH';
  let outcome = await page.pressGenerate();
  await judge(t, page, rule, 'Generate token asks for the password again before any token', asksForPassword(outcome), 'soft');
  if (outcome.kind === 'password') {
    const username = page.of('username');
    const boxValue = (await visible(username)) ? await username.inputValue().catch(() => undefined) : undefined;
    await judge(t, page, rule, 'the re-authentication page shows who is signed in', showsUser(user.email, await page.text(), boxValue), 'soft');
    if (t.can(WRONG_PASSWORD)) {
      // Not TACK_USER_PASSWORD: the password guard does not count its refusal (./password-guard.ts).
      outcome = await page.submitPassword(`tack-wrong-${randomBytes(9).toString('base64url')}`, user.email);
      await judge(t, page, rule, 'a wrong password gets no token', noTokenShown(outcome), 'soft');
      if (outcome.kind !== 'password' && outcome.kind !== 'token') {
        await page.openSignedIn(user.email, user.password);
        outcome = await page.pressGenerate();
      }
    }
    if (outcome.kind === 'password') {
      outcome = await page.submitPassword(user.password, user.email);
      await judge(t, page, rule, 'with the password typed again, the token appears', tokenShown(outcome), 'soft');
    }
  }
  if (outcome.kind !== 'token') throw new Error(`no token appeared after Generate token and the password: ${outcomeText(outcome)}`);
}

/** How long, in the page's own time, the reloaded page is watched for the token coming back: 5 s in steps of 1 s. */
const RELOAD_WATCH_STEPS = 5;

/**
 * Reloads the page: the token is not shown again, and no list of tokens or revoke control is there.
 * The page's timers run on the browser's controlled clock from the reload on, and are run 5 s
 * forward (a step at a time, what the page fetches in between let land), so a token put back late
 * is seen without waiting for it.
 */
async function afterReload(t: TestContext, page: TokenPage, token: string, masked: string): Promise<void> {
  await page.page.clock.install();
  await page.page.reload({ waitUntil: 'load' });
  for (let step = 0; step < RELOAD_WATCH_STEPS; step++) {
    await page.settle(100, 1_000);
    await page.page.clock.runFor(1_000);
  }
  await page.settle(150);
  // A token the page brings back may take a moment to render: look for it a little longer.
  const back = await page.waitFor(async () => ((await seenElement(await page.locators.token(token), await page.seen())) ? true : undefined), 250);
  const seen = await page.seen();
  await judge(t, page, 'TOKEN-PAGE-SHOWN-ONCE', 'the reloaded page', notShownAgain(back === true, seen, masked, token), 'soft');
  unreadable(t, 'TOKEN-PAGE-SHOWN-ONCE', 'the reloaded page', seen);
  heldOutOfSight(t, 'TOKEN-PAGE-SHOWN-ONCE', 'after the reload', seen, token);
  await judge(t, page, 'TOKEN-PAGE-NO-LIST', 'controls on the token page', noRevokeControl(await revokeControls(page.page)), 'soft');
  await judge(t, page, 'TOKEN-PAGE-NO-LIST', 'lists and tables on the token page', noTokenList(await tokenLists(page.page, token, masked)), 'soft');
}

/** Visible buttons and links named like revoking a token. */
async function revokeControls(page: Page): Promise<string[]> {
  const controls = [...(await page.getByRole('button', { name: REVOKE }).all()), ...(await page.getByRole('link', { name: REVOKE }).all())];
  const names: string[] = [];
  for (const control of controls) if (await control.isVisible()) names.push((await control.innerText()).trim().slice(0, 60));
  return names;
}
