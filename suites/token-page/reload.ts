/**
 * After a reload (spec §3, §5): the token shown a moment ago is not shown again (no token element,
 * neither its masked text nor its full value in the visible text); and with that live token of the
 * user in existence, the page lists no tokens and offers no control to revoke, delete or disable one.
 * The page's navigation menus are not lists of tokens and are left out.
 */
import type { Page } from 'playwright-core';
import { visible } from '../../src/harness/browser/token-page.js';
import type { TestCase } from '../../src/harness/types.js';
import { noRevokeControl, noTokenList, notShownAgain } from '../checks/page.js';
import { generateShown, judge, onTokenPage, PAGE_NEEDS, realToken } from './support.js';

const REVOKE = /revoke|delete|remove|invalidate|disable|deactivate/i;

export const reload: TestCase = {
  id: 'token-page/reload',
  title: 'Reloading the page does not show the token again, and the page lists no tokens nor offers to revoke one',
  rules: ['TOKEN-PAGE-SHOWN-ONCE', 'TOKEN-PAGE-NO-LIST'],
  needs: PAGE_NEEDS,
  async run(t) {
    const { page, user } = await onTokenPage(t);
    await generateShown(page, user);
    const masked = (await (await page.locators.token()).innerText().catch(() => '')).trim();
    const { token } = await realToken(page);
    await page.page.reload({ waitUntil: 'load' });
    await page.settle(150);
    // A token the page brings back may take a moment to render: look for it a little longer.
    const back = await page.waitFor(async () => ((await visible(await page.locators.token(token))) ? true : undefined), 250);
    await judge(t, page, 'TOKEN-PAGE-SHOWN-ONCE', 'the reloaded page', notShownAgain(back === true, await page.text(), masked, token), 'soft');
    await judge(t, page, 'TOKEN-PAGE-NO-LIST', 'controls on the token page', noRevokeControl(await revokeControls(page.page)), 'soft');
    await judge(t, page, 'TOKEN-PAGE-NO-LIST', 'lists and tables on the token page', noTokenList(await tokenLists(page.page)));
  },
};

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
