/**
 * Clipboard blocked (spec §7): where the clipboard refuses the write, Copy shows "Couldn't copy the
 * token. Select it and copy it manually." Provoked as token-page.md says: a browser context denied
 * the clipboard (`permissions: []`), whose `document.execCommand('copy')` reports failure too.
 */
import { MESSAGES } from '../../src/harness/browser/token-page.js';
import type { TestCase } from '../../src/runner/test-case.js';
import { messageShown } from '../../src/checks/page.js';
import { generateShown, judge, onTokenPage, PAGE_NEEDS, shownMessages, waitForMessage } from '../../src/steps/page-flow.js';

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
