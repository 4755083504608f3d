import { describe, expect, it } from 'vitest';
import { BrowserHost, launchBrowser } from '../../../src/harness/browser/browser-host.js';
import { BROWSER, noBrowserWords } from '../../helpers/browser.js';
import { browserLimitMs } from '../../helpers/browser-time.js';

describe.skipIf(!BROWSER.found)(`a browser lent to a run${noBrowserWords()}`, () => {
  it(
    'serves the run its own contexts, which the run closes, and stays open for its owner',
    async () => {
      const browser = await launchBrowser(BROWSER.found ? BROWSER.path : '');
      try {
        let lent = 0;
        const host = new BrowserHost(undefined, 5_000, async () => {
          lent++;
          return browser;
        });
        const first = await host.newContext({});
        const second = await host.newContext({});
        expect(browser.contexts()).toEqual([first, second]);
        await host.close();
        expect({ lent, contexts: browser.contexts().length, connected: browser.isConnected() }).toEqual({ lent: 1, contexts: 0, connected: true });
      } finally {
        await browser.close();
      }
    },
    browserLimitMs(),
  );

  it(
    'is closed with the run when the run launched it itself',
    async () => {
      const host = new BrowserHost(undefined, 5_000);
      const browser = await host.browser();
      await host.close();
      expect(browser.isConnected()).toBe(false);
    },
    browserLimitMs(),
  );
});

describe.skipIf(!BROWSER.found)(`a browser as a run launches it${noBrowserWords()}`, () => {
  it(
    "opens no page of the browser's own with a context (the address bar's drop-down cost a renderer per context)",
    async () => {
      const browser = await launchBrowser(BROWSER.found ? BROWSER.path : '');
      try {
        const context = await browser.newContext();
        const page = await context.newPage();
        await page.goto('data:text/html,<p>a page of the target</p>');
        const session = await browser.newBrowserCDPSession();
        // Every kind of target, the browser's own pages (browser_ui) too.
        const { targetInfos } = await session.send('Target.getTargets', { filter: [{}] } as never);
        const own = targetInfos.filter((t) => t.url.startsWith('chrome://') || t.type === 'browser_ui').map((t) => `${t.type} ${t.url}`);
        expect(own).toEqual([]);
      } finally {
        await browser.close();
      }
    },
    browserLimitMs(),
  );
});
