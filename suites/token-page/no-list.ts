/**
 * No screen lists or revokes tokens (spec §5): with at least one live token of the user (generated
 * here first), the token page shows no list or table of tokens and no control to revoke, delete or
 * disable one. The page's navigation menus are not lists of tokens and are left out.
 */
import type { TestCase } from '../../src/harness/types.js';
import { noRevokeControl, noTokenList } from '../checks/page.js';
import { generateShown, judge, onTokenPage, PAGE_NEEDS } from './support.js';

const RULE = 'TOKEN-PAGE-NO-LIST';
const REVOKE = /revoke|delete|remove|invalidate|disable|deactivate/i;

export const noList: TestCase = {
  id: 'token-page/no-list',
  title: 'The page lists no tokens and offers no control to revoke one',
  rules: [RULE],
  needs: PAGE_NEEDS,
  async run(t) {
    const { page, user } = await onTokenPage(t);
    await generateShown(page, user);
    await page.open();
    await page.settle();
    const controls = [...(await page.page.getByRole('button', { name: REVOKE }).all()), ...(await page.page.getByRole('link', { name: REVOKE }).all())];
    const names: string[] = [];
    for (const control of controls) if (await control.isVisible()) names.push((await control.innerText()).trim().slice(0, 60));
    await judge(t, page, RULE, 'controls on the token page', noRevokeControl(names), 'soft');
    await judge(t, page, RULE, 'lists and tables on the token page', noTokenList(await tokenLists(page.page)));
  },
};

/** Visible lists and tables outside navigation that speak of tokens, described in a few words. */
async function tokenLists(page: import('playwright-core').Page): Promise<string[]> {
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
