/**
 * The copy control (spec §7): Copy puts exactly the token on the clipboard, whole; where the
 * clipboard refuses the write, the page says "Couldn't copy the token. Select it and copy it
 * manually." The token is known from the page's own token response (token-page.md: the page redeems
 * its code in the browser); where the page gets it server-side, the copied value must exchange at
 * the sign-in server instead. Clipboard refused: a context denied the clipboard (`permissions: []`).
 */
import type { TestCase } from '../../src/harness/types.js';
import { exchanged } from '../checks/oauth.js';
import { copiedSomething, messageShown, sameToken } from '../checks/page.js';
import { MESSAGES } from '../../src/harness/browser/token-page.js';
import { generateShown, judge, onTokenPage, PAGE_NEEDS, shownMessages, waitForMessage } from './support.js';

export const copy: TestCase = {
  id: 'token-page/copy',
  title: 'Copy puts the token, exactly and whole, on the clipboard',
  rules: ['TOKEN-PAGE-COPY'],
  needs: PAGE_NEEDS,
  async run(t) {
    const { page, user } = await onTokenPage(t);
    await generateShown(page, user);
    const issued = await page.tap.issuedToken();
    const copied = await page.copy();
    await judge(t, page, 'TOKEN-PAGE-COPY', 'Copy puts something on the clipboard', copiedSomething(copied));
    if (issued !== undefined) {
      await judge(t, page, 'TOKEN-PAGE-COPY', 'the clipboard after Copy holds the token the page received', sameToken(copied, issued));
      return;
    }
    t.observe('TOKEN-PAGE-COPY', 'the page redeemed no code in the browser, so the copied value is judged by exchanging it');
    const chain = t.tokens.adopt(copied!, user.email, user.created);
    t.check('TOKEN-PAGE-COPY', 'the copied value exchanges at the sign-in server (it is a whole, live token)', exchanged(await chain.exchange()));
  },
};

export const copyBlocked: TestCase = {
  id: 'token-page/copy-blocked',
  title: 'A refused clipboard write shows the exact copy-failure message',
  rules: ['TOKEN-PAGE-COPY-BLOCKED'],
  needs: PAGE_NEEDS,
  async run(t) {
    const { page, user } = await onTokenPage(t, { clipboard: 'denied' });
    await generateShown(page, user);
    await page.pressCopy();
    const shown = await waitForMessage(page, MESSAGES.copyBlocked);
    await judge(t, page, 'TOKEN-PAGE-COPY-BLOCKED', 'Copy with the clipboard refused', messageShown(shown, MESSAGES.copyBlocked, await shownMessages(page)));
  },
};
