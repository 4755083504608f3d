/**
 * Business search checks at their edges (src/checks/search.ts, src/checks/search-schema.ts): each
 * case pins down what a weaker check would pass, found by mutation testing (`npm run mutation`).
 */
import { describe, expect, it } from 'vitest';
import { type Item, itemKey, listed, listsSomething, notListed, type SearchPages, searchSchema, totalCountsAll } from '../../src/checks/search.js';
import { schemaProblems, searchResultSchema } from '../../src/checks/search-schema.js';
import { answer } from './table.js';

const pages = (items: Item[], status = 200, parsed = status === 200): SearchPages => {
  const first = answer(status, { json: { items, pageIndex: 0, pageSize: 10, totalCount: items.length } });
  return {
    first,
    parsed,
    items,
    pageOfItem: new Map(items.map((item, i) => [item.id, i])),
    repeats: [],
    pages: items.length,
    sizes: items.map(() => ({ items: 1, pageSize: 1 })),
    responses: [first],
    totalCount: items.length,
    complete: true,
    incomplete: undefined,
  };
};
const acme = { id: '1', name: 'Acme' };
const globex = { id: '2', name: 'Globex' };
const item = { id: 1, name: 'Acme', registrationNumber: 'R1' };

describe('business search checks at their edges (src/checks/search.ts)', () => {
  it('an item without a name is keyed with null, one with a name by both', () => {
    expect(itemKey({ id: '1', name: undefined })).toBe('["1",null]');
    expect(itemKey(acme)).toBe('["1","Acme"]');
  });

  it('a search result answered 201 is not the schema, even when the body is', () => {
    expect(searchSchema(answer(201, { json: { items: [item], pageIndex: 0, pageSize: 10, totalCount: 1 } })).ok).toBe(false);
  });

  it('listed means the same id, and the same name when one is asked for', () => {
    expect(listed(pages([globex]), { id: '1' }).ok).toBe(false);
    expect(listed(pages([globex, acme]), { id: '1', name: 'Acme' }).ok).toBe(true);
  });

  it('not listed needs a 200 that was read: an error answer, or a 200 tack could not read, proves nothing', () => {
    expect(notListed(pages([], 500, true), { id: '1' }).ok).toBe(false);
    expect(notListed(pages([], 200, false), { id: '1' }).ok).toBe(false);
    expect(notListed(pages([], 403, false), { id: '1' }).ok).toBe(true);
  });

  it('a business listed on the second page is said to be there', () => {
    expect(notListed(pages([globex, acme]), { id: '1' }).actual).toBe('listed on page 2');
  });

  it('lists something needs a 200 that was read', () => {
    expect(listsSomething(pages([acme], 500, true)).ok).toBe(false);
    expect(listsSomething(pages([acme], 200, false)).ok).toBe(false);
    expect(listsSomething(pages([acme])).ok).toBe(true);
  });

  it('a totalCount equal to the known matches counts them all', () => {
    expect(totalCountsAll(3, 3).ok).toBe(true);
  });
});

describe('the search result schema at its edges (src/checks/search-schema.ts)', () => {
  const problems = (body: unknown) => {
    const parsed = searchResultSchema.safeParse(body);
    return parsed.success ? 'none' : schemaProblems(parsed.error);
  };

  it('a full page holds pageSize items', () => {
    expect(problems({ items: [item, item], pageIndex: 0, pageSize: 2, totalCount: 2 })).toBe('none');
  });

  it('more items than pageSize, or a totalCount below the items on the page, is named at its member', () => {
    expect(problems({ items: [item, item], pageIndex: 0, pageSize: 1, totalCount: 2 })).toBe('items: 2 items on a page of pageSize 1');
    expect(problems({ items: [item, item], pageIndex: 0, pageSize: 2, totalCount: 1 })).toBe('totalCount: totalCount 1 is less than the 2 items on the page');
  });

  it('the first four problems are named and the rest counted', () => {
    const four = problems({});
    expect(four.split('; ').map((p) => p.split(':')[0])).toEqual(['items', 'pageIndex', 'pageSize', 'totalCount']);
    expect(four).not.toMatch(/more/);
    expect(problems({ items: [{}, {}] })).toMatch(/; and 5 more$/);
    expect(problems(null)).toMatch(/^\(body\): /);
  });
});
