/**
 * The shape of a search answer (spec §2, §4.3): items with id, name and registrationNumber, and the
 * paging members, with the invariants any paging must keep, exercised on every page: no more items
 * than pageSize (at least 1), totalCount at least the items seen, every page read holds, in all,
 * totalCount items, no match comes back on a later page (pages that overlap), every page says the
 * same totalCount, and each page's pageIndex is its position.
 *
 * The shape does not depend on where the token came from: with the hook, a fresh user reads more
 * businesses than a page holds (./crowd.ts); else a user who reads businesses is asked for a page
 * of 2, with a personal token of theirs or, failing one (partner keys only), a token the partner key
 * mints for them. If the pages never fill, the page-size bound was not exercised and is reported as
 * such. What every other search of the run answered is judged too (suites/run-wide/every-answer.ts).
 */
import { keyed, type TestContext } from '../../src/runner/test-context.js';
import { describeResponse } from '../../src/checks/describe-response.js';
import { finding } from '../../src/checks/finding.js';
import type { TestCase } from '../../src/runner/test-case.js';
import type { TestPart } from '../../src/runner/needs.js';
import { jsonMediaType } from '../../src/checks/response.js';
import {
  eachMatchOnce,
  noEmptyPageBeforeTotal,
  pageIndexIsPosition,
  sameTotalOnEveryPage,
  searchSchema,
  totalCountsAll,
  type SearchPages,
} from '../../src/checks/search.js';
import { createMember, mintOrStop, readerMember } from '../../src/steps/members.js';
import { accessTokenOf } from '../../src/steps/token-exchange.js';
import { crowdedUser, SMALL_PAGE } from './crowd.js';
import { searchPages } from '../../src/steps/paging.js';

/** The items of a search answer need a user who reads some: without one the list is empty whatever the server. */
const ITEMS: TestPart = {
  rule: 'SEARCH-SHAPE',
  title: 'items (id, name, registrationNumber) of a search answer, on pages of a user who reads businesses',
  needs: ['reader-access'],
};

export const searchShape: TestCase = {
  id: 'api/search-shape',
  title: 'Search answers items (id, name, registrationNumber) and paging members that hold on every page',
  rules: ['SEARCH-SHAPE'],
  needs: [],
  parts: [ITEMS],
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
    const reader = t.can(ITEMS) ? await readerAccess(t) : undefined;
    if (!reader) {
      if (t.can(ITEMS)) t.unverified('SEARCH-SHAPE', ITEMS.title, 'no user who reads a business could be had in this run');
      // No user who reads anything: what an answer's members are can still be seen, on an empty list.
      const access = await anyAccess(t);
      if (access !== undefined) judgePages(t, await searchPages(t, t.target.baseUrl, access.token, { pageSize: 2 }));
      else t.unverified('SEARCH-SHAPE', 'a search answer', 'needs an access token: the partner key, the test hook (users, api-tokens) or a personal API token');
      return;
    }
    const pages = await searchPages(t, t.target.baseUrl, reader.token, { pageSize: 2 });
    if (!judgePages(t, pages)) return;
    t.observe('SEARCH-SHAPE', `searched with ${reader.how}`);
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

/** An access token of a user who reads businesses: a personal token of theirs, else one the partner key mints. */
async function readerAccess(t: TestContext): Promise<{ token: string; how: string } | undefined> {
  const personal = await t.tokens.reader();
  if (personal) return { token: await accessTokenOf(personal.chain), how: 'a personal API token' };
  if (!t.target.partner) return undefined;
  const member = await readerMember(t, 'shape');
  if (!member) return undefined;
  return { token: (await mintOrStop(t, member.email)).access.value, how: 'a token the partner key minted' };
}

/** An access token of any user: one tack owns, else one the partner key mints for a user it creates. */
async function anyAccess(t: TestContext): Promise<{ token: string } | undefined> {
  if (t.tokens.canOwn) return { token: await accessTokenOf(await t.tokens.own()) };
  if (!t.target.partner) return undefined;
  return { token: (await mintOrStop(t, await createMember(t, 'shape'))).access.value };
}

/** What an incomplete walk leaves unverified. */
const PAGES_WALKED = 'every page of a search read, until the pages hold totalCount matches';

/** Judges the pages read; false when there was no search answer to judge (not a 200: the rules on the token judge that). */
function judgePages(t: TestContext, pages: SearchPages): boolean {
  if (pages.first.status !== 200) {
    t.unverified('SEARCH-SHAPE', 'a search answer', `the search answered ${describeResponse(pages.first)}: no result to judge`);
    return false;
  }
  t.soft('SEARCH-SHAPE', 'the answer is JSON', jsonMediaType(pages.first));
  for (const [i, res] of pages.responses.entries()) {
    // How many pages there are is the target's: each page's check is keyed by its page, so the checks after keep their places.
    t.check(
      'SEARCH-SHAPE',
      keyed(`page-${i + 1}`, `page ${i + 1}: items[] (id, name, registrationNumber), pageIndex, pageSize ≥ 1, totalCount; items ≤ pageSize ≤ totalCount`),
      searchSchema(res),
    );
  }
  t.soft('SEARCH-SHAPE', 'paging through lists each match once (pages do not overlap)', eachMatchOnce(pages));
  t.soft('SEARCH-SHAPE', 'paging through reaches totalCount (no page empty before it)', noEmptyPageBeforeTotal(pages));
  if (pages.pages > 1) {
    t.soft('SEARCH-SHAPE', keyed('same-total', 'every page of a walk says the same totalCount'), sameTotalOnEveryPage(pages));
    t.soft('SEARCH-SHAPE', keyed('page-index', "every page's pageIndex is its position in the walk"), pageIndexIsPosition(pages));
  }
  // A walk that could not reach totalCount (the target ignores tack's paging parameters) has not seen the pages it judges.
  if (!pages.complete && pages.emptyPage === undefined) t.unverified('SEARCH-SHAPE', PAGES_WALKED, pages.incomplete ?? 'not every page could be read');
  const first = pages.responses[0]!.json as { pageIndex?: unknown; pageSize?: unknown; totalCount?: unknown; items?: unknown[] };
  const base = first.pageIndex === 0 ? '0-based' : first.pageIndex === 1 ? 'probably 1-based' : 'base unknown';
  t.observe(
    'SEARCH-SHAPE',
    `first page: pageIndex ${String(first.pageIndex)} (${base}), pageSize ${String(first.pageSize)}, totalCount ${String(first.totalCount)}, ` +
      `${pages.sizes[0]?.items ?? 0} items; ${pages.pages} page(s) read`,
  );
  return true;
}
