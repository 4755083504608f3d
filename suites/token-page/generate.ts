/**
 * Generating a token, as a person does it, and what the page does with it (spec §1, §3, §5, §7):
 *
 * - TOKEN-PAGE-REAUTH: Generate token leads to a page that asks for the password again and shows who
 *   is signed in, before any token exists; for a user tack created (hook), a wrong password is tried
 *   first and must get no token (the user of TACK_USER_EMAIL is never sent a wrong password: a real
 *   account may lock after failures); with the password, the token appears.
 * - TOKEN-PAGE-COPY: Copy puts exactly the token the page received on the clipboard, whole.
 * - TOKEN-PAGE-SHOWN-ONCE: a reload shows it no more (no token element, neither its masked text nor
 *   its full value in the visible text).
 * - TOKEN-PAGE-NO-LIST: with that live token of the user in existence, the reloaded page lists no
 *   tokens and offers no control to revoke, delete or disable one (navigation menus left out).
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
import { judge, onTokenPage, PAGE_NEEDS } from '../../src/steps/page-flow.js';
import type { TestPart } from '../../src/runner/needs.js';

const REVOKE = /revoke|delete|remove|invalidate|disable|deactivate/i;

/** A wrong password is typed only for users tack creates: a real account (TACK_USER_EMAIL) may lock. */
const WRONG_PASSWORD: TestPart = {
  rule: 'TOKEN-PAGE-REAUTH',
  title: 'a wrong password gets no token (typed only for users tack creates: a real account may lock)',
  needs: ['hook:users', 'hook:passwords'],
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
    const masked = (await (await page.locators.token()).innerText().catch(() => '')).trim();

    const issued = await page.tap.issuedToken();
    const copied = await page.copy();
    await judge(t, page, 'TOKEN-PAGE-COPY', 'Copy puts text on the clipboard', copiedSomething(copied), 'soft');
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
      if (!user.created) throw new Error('the web user is not one tack created, although the hook creates users with passwords');
      outcome = await page.submitPassword(`tack-wrong-${randomBytes(9).toString('base64url')}`);
      await judge(t, page, rule, 'a wrong password gets no token', noTokenShown(outcome), 'soft');
      if (outcome.kind !== 'password' && outcome.kind !== 'token') {
        await page.openSignedIn(user.email, user.password);
        outcome = await page.pressGenerate();
      }
    }
    if (outcome.kind === 'password') {
      outcome = await page.submitPassword(user.password);
      await judge(t, page, rule, 'with the password typed again, the token appears', tokenShown(outcome), 'soft');
    }
  }
  if (outcome.kind !== 'token') throw new Error(`no token appeared after Generate token and the password: ${outcomeText(outcome)}`);
}

/** Reloads the page: the token is not shown again, and no list of tokens or revoke control is there. */
async function afterReload(t: TestContext, page: TokenPage, token: string, masked: string): Promise<void> {
  await page.page.reload({ waitUntil: 'load' });
  await page.settle(150);
  // A token the page brings back may take a moment to render: look for it a little longer.
  const back = await page.waitFor(async () => ((await visible(await page.locators.token(token))) ? true : undefined), 250);
  await judge(t, page, 'TOKEN-PAGE-SHOWN-ONCE', 'the reloaded page', notShownAgain(back === true, await page.text(), masked, token), 'soft');
  await judge(t, page, 'TOKEN-PAGE-NO-LIST', 'controls on the token page', noRevokeControl(await revokeControls(page.page)), 'soft');
  await judge(t, page, 'TOKEN-PAGE-NO-LIST', 'lists and tables on the token page', noTokenList(await tokenLists(page.page)), 'soft');
}

/** Visible buttons and links named like revoking a token. */
async function revokeControls(page: Page): Promise<string[]> {
  const controls = [...(await page.getByRole('button', { name: REVOKE }).all()), ...(await page.getByRole('link', { name: REVOKE }).all())];
  const names: string[] = [];
  for (const control of controls) if (await control.isVisible()) names.push((await control.innerText()).trim().slice(0, 60));
  return names;
}

/** Visible lists and tables outside navigation that speak of tokens, described in a few words. */
function tokenLists(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const out = [];
    for (const el of document.querySelectorAll('ul, ol, table, [role=list], [role=table], [role=grid]')) {
      if (el.closest('nav, [role=navigation]') || el.offsetParent === null) continue;
      const text = (el.innerText || '').replace(/\\s+/g, ' ').trim();
      if (!/token|generated|created|expires|last used|revoke|[•●*]{4,}/i.test(text)) continue;
      const items = el.querySelectorAll('li, tr, [role=listitem], [role=row]').length;
      out.push(el.tagName.toLowerCase() + ' of ' + items + ' item(s): "' + text.slice(0, 80) + '"');
    }
    return out;
  })()`);
}
