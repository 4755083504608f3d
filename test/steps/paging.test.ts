/**
 * searchPages over a stubbed search: every page read until totalCount different items are held,
 * pages numbered from the first page's own pageIndex, and an honest "incomplete" (never a complete
 * walk) when the target ignores the paging parameters, overlaps pages, or leaves totalCount out.
 */
import { describe, expect, it } from 'vitest';
import { searchPages } from '../../src/steps/paging.js';
import { response, stubContext } from './stub-context.js';

type Query = Record<string, string>;
const item = (id: string) => ({ id, name: `B ${id}` });

/** A search whose answer to each query comes from `answer`; `asked` keeps the queries sent. */
function searching(answer: (query: Query) => ReturnType<typeof response>) {
  const asked: Query[] = [];
  const api = {
    search: (_base: string, _token: string | undefined, query: Query) => {
      asked.push(query);
      return Promise.resolve(answer(query));
    },
  };
  const target = { paging: { pageIndexParam: 'pageIndex', pageSizeParam: 'pageSize' } };
  return { ...stubContext({ api, target }), asked };
}

/** Pages of `size` over `all`, numbered from `base`. */
function paged(all: string[], size: number, base = 0) {
  return (q: Query) => {
    const index = q.pageIndex === undefined ? base : Number(q.pageIndex);
    const from = (index - base) * size;
    return response(200, { items: all.slice(from, from + size).map(item), pageIndex: index, pageSize: size, totalCount: all.length });
  };
}

describe('searchPages', () => {
  it('reads every page until totalCount items are held, sending the page size asked for', async () => {
    const { t, asked } = searching(paged(['a', 'b', 'c', 'd', 'e'], 2));
    const pages = await searchPages(t, 'http://acme', 'tok', { pageSize: 2 });
    expect(pages).toMatchObject({ complete: true, pages: 3, totalCount: 5, parsed: true, repeats: [] });
    expect(pages.items.map((i) => i.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(asked).toEqual([{ pageSize: '2' }, { pageSize: '2', pageIndex: '1' }, { pageSize: '2', pageIndex: '2' }]);
    expect(pages.pageOfItem.get('e')).toBe(2);
  });

  it('numbers the pages from a 1-based first page', async () => {
    const { t, asked } = searching(paged(['a', 'b', 'c'], 2, 1));
    const pages = await searchPages(t, 'http://acme', 'tok');
    expect(pages.complete).toBe(true);
    expect(asked[1]).toEqual({ pageIndex: '2' });
  });

  it('is incomplete, naming the parameters, when the target serves the first page again', async () => {
    const { t } = searching(() => response(200, { items: [item('a'), item('b')], totalCount: 4 }));
    const pages = await searchPages(t, 'http://acme', 'tok');
    expect(pages.complete).toBe(false);
    expect(pages.incomplete).toMatch(/TACK_PAGE_INDEX_PARAM/);
  });

  it('keeps overlapping pages as repeats and does not count them towards totalCount', async () => {
    const all = ['a', 'b', 'c'];
    // An off-by-one offset: page 1 starts at item 1, not 2.
    const { t } = searching((q) => {
      const index = Number(q.pageIndex ?? 0);
      return response(200, { items: all.slice(index, index + 2).map(item), pageIndex: index, totalCount: 3 });
    });
    const pages = await searchPages(t, 'http://acme', 'tok');
    expect(pages.complete).toBe(true);
    expect(pages.repeats).toEqual([{ id: 'b', firstPage: 1, page: 2 }]);
  });

  it.each([
    ['a first answer that is not a listing', response(403, { error: 'forbidden' }), /search answered/],
    ['a listing without totalCount', response(200, { items: [item('a')] }), /no totalCount/],
  ])('is incomplete and unparsed-aware on %s', async (_what, first, why) => {
    const { t } = searching(() => first);
    const pages = await searchPages(t, 'http://acme', 'tok');
    expect(pages.complete).toBe(false);
    expect(pages.incomplete).toMatch(why);
  });

  it('keeps an empty page that says more matches than were read (pages that start late)', async () => {
    const { t } = searching((q) =>
      q.pageIndex === undefined
        ? response(200, { items: [item('a')], pageIndex: 0, totalCount: 3 })
        : response(200, { items: [], pageIndex: 1, totalCount: 3 }),
    );
    const pages = await searchPages(t, 'http://acme', 'tok');
    expect(pages.complete).toBe(false);
    expect(pages.emptyPage).toEqual({ page: 2, totalCount: 3, read: 1 });
  });
});
