/**
 * Shown once (spec §3): after the new token has been shown, reloading the page does not show it
 * again: no token element, neither the masked text nor the full value anywhere in the visible text.
 */
import type { TestCase } from '../../src/harness/types.js';
import { visible } from '../../src/harness/browser/token-page.js';
import { notShownAgain } from '../checks/page.js';
import { generateShown, judge, onTokenPage, PAGE_NEEDS, realToken } from './support.js';

const RULE = 'TOKEN-PAGE-SHOWN-ONCE';

export const shownOnce: TestCase = {
  id: 'token-page/shown-once',
  title: 'Reloading the page does not show the token again',
  rules: [RULE],
  needs: PAGE_NEEDS,
  async run(t) {
    const { page, user } = await onTokenPage(t);
    await generateShown(page, user);
    const masked = (await (await page.locators.token()).innerText().catch(() => '')).trim();
    const { token } = await realToken(page);
    await page.page.reload({ waitUntil: 'load' });
    await page.settle();
    // A token the page brings back may take a moment to render: look for it a little longer.
    const back = await page.waitFor(async () => ((await visible(await page.locators.token(token))) ? true : undefined), 400);
    await judge(t, page, RULE, 'the reloaded page', notShownAgain(back === true, await page.text(), masked, token));
  },
};
