/**
 * The shape of a search answer (spec §2, §4.3): items with id, name and registrationNumber, and the
 * paging members, with the invariants any paging must keep, exercised on every page: no more items
 * than pageSize (at least 1), totalCount at least the items seen, and every page read holds, in
 * all, totalCount items.
 *
 * With the hook, a fresh user reads more businesses than a page holds (./crowd.ts). In hookless
 * mode the token file's user is asked for a page of 2; if the pages never fill, the page-size bound
 * was not exercised and is reported as such.
 */
import type { TestContext } from '../../src/runner/test-context.js';
import { finding } from '../../src/checks/finding.js';
import type { TestCase } from '../../src/runner/test-case.js';
import { jsonMediaType } from '../../src/checks/response.js';
import { searchSchema, totalCountsAll, type SearchPages } from '../../src/checks/search.js';
import { accessTokenOf } from '../../src/steps/token-exchange.js';
import { crowdedUser, SMALL_PAGE } from './crowd.js';
import { searchPages } from '../../src/steps/paging.js';

export const searchShape: TestCase = {
  id: 'api/search-shape',
  title: 'Search answers items (id, name, registrationNumber) and paging members that hold on every page',
  rules: ['SEARCH-SHAPE'],
  needs: ['api-token'],
  async run(t) {
    if (t.tokens.fromHook && t.readers.canGrant) {
      const crowd = await crowdedUser(t, { hidden: false });
      const pages = await searchPages(t, t.target.baseUrl, crowd.access, { pageSize: SMALL_PAGE });
      judgePages(t, pages);
      if (crowd.unfilled) t.unverified('SEARCH-SHAPE', 'a page holds no more items than pageSize, with more matches than one page', crowd.unfilled);
      else
        t.soft(
          'SEARCH-SHAPE',
          `${crowd.readable.length} readable businesses: totalCount counts them all`,
          totalCountsAll(pages.totalCount ?? 0, crowd.readable.length),
        );
      const seen = new Set(pages.items.map((i) => i.id));
      const missing = crowd.readable.filter((id) => !seen.has(id)).length;
      if (pages.complete)
        t.soft(
          'SEARCH-SHAPE',
          'paging through lists every readable business',
          finding(missing === 0, `all ${crowd.readable.length} listed`, `${missing} not on any page`),
        );
      else t.unverified('SEARCH-SHAPE', 'paging through lists every readable business', pages.incomplete ?? 'not every page could be read');
      return;
    }
    const reader = await t.tokens.reader();
    if (!reader) {
      t.unverified(
        'SEARCH-SHAPE',
        'items of a search answer',
        'needs a user who reads businesses: the hook with businesses and access, or TACK_USER_EMAIL with TACK_API_TOKEN_FILE or TACK_USER_PASSWORD',
      );
      return;
    }
    const pages = await searchPages(t, t.target.baseUrl, await accessTokenOf(reader.chain), { pageSize: 2 });
    judgePages(t, pages);
    t.soft('SEARCH-SHAPE', 'a user who reads businesses gets items', finding(pages.items.length > 0, 'at least one item', '0 items'));
    const full = pages.sizes.some((s) => s.pageSize !== undefined && s.items === s.pageSize && (pages.totalCount ?? 0) > s.items);
    if (!full)
      t.unverified(
        'SEARCH-SHAPE',
        'a page holds no more items than pageSize, with more matches than one page',
        'the user reads no more businesses than one page holds: needs the hook (businesses, access) or a TACK_USER_EMAIL who reads more',
      );
  },
};

function judgePages(t: TestContext, pages: SearchPages): void {
  t.soft('SEARCH-SHAPE', 'the answer is JSON', jsonMediaType(pages.first));
  for (const [i, res] of pages.responses.entries()) {
    t.check(
      'SEARCH-SHAPE',
      `page ${i + 1}: items[] (id, name, registrationNumber), pageIndex, pageSize ≥ 1, totalCount; items ≤ pageSize ≤ totalCount`,
      searchSchema(res),
    );
  }
  const first = pages.responses[0]!.json as { pageIndex?: unknown; pageSize?: unknown; totalCount?: unknown; items?: unknown[] };
  const base = first.pageIndex === 0 ? '0-based' : first.pageIndex === 1 ? 'probably 1-based' : 'base unknown';
  t.observe(
    'SEARCH-SHAPE',
    `first page: pageIndex ${String(first.pageIndex)} (${base}), pageSize ${String(first.pageSize)}, totalCount ${String(first.totalCount)}, ` +
      `${pages.sizes[0]?.items ?? 0} items; ${pages.pages} page(s) read`,
  );
}
