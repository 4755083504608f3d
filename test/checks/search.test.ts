import {
  eachMatchOnce,
  type Item,
  listed,
  listsSomething,
  noEmptyPageBeforeTotal,
  notListed,
  pageIndexIsPosition,
  sameTotalOnEveryPage,
  type SearchPages,
  totalCountsAll,
} from '../../src/checks/search.js';
import { answer, table } from './table.js';

const page = (items: Item[], status = 200, complete = true): SearchPages => {
  const first = answer(status, { json: status === 200 ? { items, pageIndex: 0, pageSize: 10, totalCount: items.length } : undefined });
  return {
    first,
    parsed: status === 200,
    items,
    pageOfItem: new Map(items.map((item) => [item.id, 0])),
    repeats: [],
    pages: 1,
    sizes: [{ items: items.length, pageSize: 10 }],
    responses: [first],
    totalCount: items.length,
    complete,
    incomplete: complete ? undefined : 'no totalCount',
  };
};
const acme = { id: '1', name: 'Acme' };

table('what a search lists (src/checks/search.ts)', [
  { name: 'listed', found: () => listed(page([acme]), { id: '1' }), ok: true },
  { name: 'listed: same id, another name', found: () => listed(page([acme]), { id: '1', name: 'Globex' }), ok: false },
  { name: 'listed: not there', found: () => listed(page([]), { id: '1' }), ok: false, actual: 'not listed (0 items on 1 page(s))' },
  { name: 'not listed: absent from a 200', found: () => notListed(page([]), { id: '1' }), ok: true },
  { name: 'not listed: 403 lists nothing', found: () => notListed(page([], 403), { id: '1' }), ok: true, actual: '403' },
  { name: 'not listed: listed', found: () => notListed(page([acme]), { id: '1' }), ok: false, actual: 'listed on page 1' },
  { name: 'not listed: a 500 is no answer', found: () => notListed(page([], 500), { id: '1' }), ok: false },
  { name: 'lists something', found: () => listsSomething(page([acme])), ok: true },
  { name: 'lists nothing', found: () => listsSomething(page([])), ok: false, actual: '0 items' },
  { name: 'each match once', found: () => eachMatchOnce(page([acme])), ok: true },
  {
    name: 'a match on two pages',
    found: () => eachMatchOnce({ ...page([acme, acme]), pages: 2, repeats: [{ id: '1', firstPage: 1, page: 2 }] }),
    ok: false,
    actual: 'business 1 on page 2 again (first on page 1); 1 repeat(s) in all',
  },
  { name: 'no page empty before totalCount', found: () => noEmptyPageBeforeTotal(page([acme])), ok: true },
  {
    name: 'pages that start one item late: page 2 empty while totalCount says 3',
    found: () => noEmptyPageBeforeTotal({ ...page([acme, acme]), pages: 2, complete: false, emptyPage: { page: 2, totalCount: 3, read: 2 } }),
    ok: false,
    actual: 'page 2 empty with totalCount 3, after 2 different match(es)',
  },
  {
    name: 'totalCount the same on every page',
    found: () =>
      sameTotalOnEveryPage({
        ...page([acme]),
        pages: 2,
        sizes: [
          { items: 1, pageSize: 1, totalCount: 2 },
          { items: 1, pageSize: 1, totalCount: 2 },
        ],
      }),
    ok: true,
  },
  {
    name: 'search total varies by page: 4 on page 1, 3 on page 2',
    found: () =>
      sameTotalOnEveryPage({
        ...page([acme]),
        pages: 2,
        sizes: [
          { items: 2, pageSize: 2, totalCount: 4 },
          { items: 2, pageSize: 2, totalCount: 3 },
        ],
      }),
    ok: false,
    actual: 'totalCount 4 on page 1, 3 on page 2',
  },
  { name: 'pageIndex is the page position', found: () => pageIndexIsPosition(page([acme])), ok: true },
  {
    name: 'search pageIndex constant 0 while items page',
    found: () => pageIndexIsPosition({ ...page([acme]), pages: 2, wrongPageIndex: { page: 2, said: 0, expected: 1 } }),
    ok: false,
    actual: 'page 2 held new items but said pageIndex 0, not 1',
  },
  { name: 'totalCount counts every match', found: () => totalCountsAll(5, 4), ok: true },
  { name: 'totalCount short of the matches', found: () => totalCountsAll(3, 4), ok: false },
]);
