/**
 * The token on screen (spec §3, §7, §8): shown masked (its full value nowhere a person sees it:
 * text, title, form fields, generated content, canvases, images, shadow roots, frames; src/harness/browser/visible-text.ts),
 * with a countdown that starts at 2:00 and goes down; when it reaches 0:00 the token leaves the page
 * and the exact notice "API token cleared from the screen. If you didn't copy it, generate a new
 * one." appears; the cleared token still exchanges. The full token held where nobody sees it (a
 * copy helper off the page or transparent) is an observation of MASKED and CLEARED, never a failure.
 *
 * Time is the browser's controlled clock (Playwright `clock`): installed before the page loads and
 * paused before Generate token, so the first reading is the countdown's first value; then run 1 s
 * forward (it must go down), to 1:58 (the token still shown as it was: a page that clears it, or
 * puts anything else in its place, before the countdown could have reached 0:00 fails here) and
 * 2 minutes in all (judged at 2:01, one second of slack). Never a real wait. A page that needs its
 * timers to load is let run, and then its first value cannot be told.
 */
import type { TestCase } from '../../src/runner/test-case.js';
import { TOKEN_DISPLAY_S } from '../../src/spec.js';
import { MESSAGES, type TokenPage, visible } from '../../src/harness/browser/token-page.js';
import { accessTokenIssued } from '../../src/checks/oauth.js';
import { countsDown, displayed, gone, messageShown, notInVisibleText, reads, sameDisplay } from '../../src/checks/page.js';
import { seenElement, shownBy } from '../../src/harness/browser/visible-text.js';
import { outcomeText } from '../../src/checks/page.js';
import {
  generate,
  heldOutOfSight,
  judge,
  PAGE_NEEDS,
  realToken,
  requireTokenPage,
  shownMessages,
  unreadable,
  waitForMessage,
} from '../../src/steps/page-flow.js';

export const display: TestCase = {
  id: 'token-page/display',
  title: 'The token is shown masked, with a countdown from 2:00, cleared at 0:00 with the notice, and still valid',
  rules: ['TOKEN-PAGE-MASKED', 'TOKEN-PAGE-COUNTDOWN', 'TOKEN-PAGE-CLEARED', 'TOKEN-PAGE-STAYS-VALID'],
  needs: PAGE_NEEDS,
  async run(t) {
    const user = await t.web.user();
    const page = await t.web.context();
    const clock = page.page.clock;
    await clock.install();
    await page.openSignedIn(user.email, user.password);
    await requireTokenPage(page);
    await clock.pauseAt((await page.page.evaluate<number>('Date.now()')) + 1_000);
    let outcome = await generate(page, user);
    let paused = true;
    if (outcome.kind !== 'token') {
      await clock.resume(); // the page may need its timers to load
      paused = false;
      outcome = await page.outcome();
      if (outcome.kind !== 'token') throw new Error(`no token appeared after Generate token and the password: ${outcomeText(outcome)}`);
    }
    const masked = await shownBy(await page.locators.token());
    const first = await countdown(page);
    const { token } = await realToken(page);

    // TOKEN-PAGE-MASKED: what a person sees (src/harness/browser/visible-text.ts), fields, canvases and images included.
    await judge(t, page, 'TOKEN-PAGE-MASKED', 'the token element shows the token', displayed(masked), 'soft');
    await page.settle(150, 2_000); // what the page loads to show it (a frame) has landed
    const seen = await page.seen();
    await judge(t, page, 'TOKEN-PAGE-MASKED', "the token's full value is nowhere a person sees it", notInVisibleText(seen, token), 'soft');
    unreadable(t, 'TOKEN-PAGE-MASKED', "the token's full value is nowhere a person sees it", seen);
    heldOutOfSight(t, 'TOKEN-PAGE-MASKED', 'while shown', seen, token);

    // TOKEN-PAGE-COUNTDOWN
    if (paused) await judge(t, page, 'TOKEN-PAGE-COUNTDOWN', 'the countdown when the token appears', reads(first, '2:00'), 'soft');
    else t.unverified('TOKEN-PAGE-COUNTDOWN', 'the countdown starts at 2:00', 'the page needed its timers to show the token: its first value was missed');
    if (!paused) await clock.pauseAt((await page.page.evaluate<number>('Date.now()')) + 10);
    await clock.runFor(1_000);
    await judge(t, page, 'TOKEN-PAGE-COUNTDOWN', 'the countdown one second later', countsDown(first, await countdown(page)), 'soft');

    // Two seconds before 0:00 the token is still there as it was shown (not a dash in its place), counting down.
    await clock.runFor((TOKEN_DISPLAY_S - 3) * 1_000);
    const stillThere = await shownBy(await page.locators.token());
    await judge(t, page, 'TOKEN-PAGE-COUNTDOWN', 'the token 1 min 58 s after it appeared', sameDisplay(masked, stillThere), 'soft');

    // TOKEN-PAGE-CLEARED, at 2:01
    await clock.runFor(3_000);
    // The page's timers have run by now: a notice still to come would have to wait for the network.
    const notice = await waitForMessage(page, MESSAGES.cleared, 2_000);
    const shown = messageShown(notice, MESSAGES.cleared, await shownMessages(page));
    await judge(t, page, 'TOKEN-PAGE-CLEARED', 'the notice once the countdown reached 0:00', shown, 'soft');
    const after = await page.seen();
    const left = gone(await seenElement(await page.locators.token(token), after), after, masked, token);
    await judge(t, page, 'TOKEN-PAGE-CLEARED', 'the token once the countdown reached 0:00', left, 'soft');
    unreadable(t, 'TOKEN-PAGE-CLEARED', 'the token once the countdown reached 0:00', after);
    heldOutOfSight(t, 'TOKEN-PAGE-CLEARED', 'once cleared', after, token);

    // TOKEN-PAGE-STAYS-VALID: whatever the page did when it cleared the token has landed first.
    await page.settle();
    const chain = t.tokens.adopt(token, user.email);
    t.check('TOKEN-PAGE-STAYS-VALID', 'the token cleared from the screen exchanges at the sign-in server', accessTokenIssued(await chain.exchange()));
  },
};

/** The countdown's text, or undefined when none is shown. */
async function countdown(page: TokenPage): Promise<string | undefined> {
  const element = page.of('countdown');
  return (await visible(element)) ? (await element.innerText()).trim() : undefined;
}
