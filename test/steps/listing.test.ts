/**
 * The listing verdicts: "not listed" is a failure only when every page was read (otherwise
 * unverified, with why), "listed where it must not be" fails on any page, and `soft` records without
 * stopping the test.
 */
import { describe, expect, it } from 'vitest';
import type { SearchPages } from '../../src/checks/search.js';
import { expectListed, expectNotListed, expectUserData } from '../../src/steps/listing.js';
import { response, stubContext } from './stub-context.js';

function pages(ids: string[], complete: boolean, status = 200): SearchPages {
  const items = ids.map((id) => ({ id, name: `B ${id}` }));
  return {
    first: response(status, status === 200 ? { items, totalCount: 9 } : { error: 'x' }),
    parsed: status === 200,
    items,
    pageOfItem: new Map(ids.map((id) => [id, 0])),
    repeats: [],
    pages: 1,
    sizes: [],
    responses: [],
    totalCount: 9,
    complete,
    incomplete: complete ? undefined : 'more than 25 pages',
  };
}
const WANTED = { id: 'b1', name: 'B b1' };

describe('expectListed', () => {
  it.each([
    ['listed on a page read', pages(['b1'], false), 'check', true, true],
    ['missing after every page was read', pages(['x'], true), 'check', false, false],
    ['missing from an incomplete walk', pages(['x'], false), 'unverified', undefined, false],
  ])('%s', (_what, read, how, ok, returned) => {
    const { t, records } = stubContext();
    let result: boolean | undefined;
    try {
      result = expectListed(t, 'SEARCH-SHAPE', 'own business', read, WANTED);
    } catch {
      result = false;
    }
    expect(records.map((r) => [r.how, r.rule, r.ok])).toEqual([[how, 'SEARCH-SHAPE', ok]]);
    expect(result).toBe(returned);
    if (how === 'unverified') expect(records[0]!.reason).toMatch(/more than 25 pages/);
  });

  it('records softly when asked, and goes on after a failure', () => {
    const { t, records } = stubContext();
    expect(expectListed(t, 'SEARCH-SHAPE', 'x', pages([], true), WANTED, { soft: true })).toBe(false);
    expect(records).toMatchObject([{ how: 'soft', ok: false }]);
  });
});

describe('expectNotListed', () => {
  it('fails on a listing that holds the business, even when not every page was read', () => {
    const { t, records } = stubContext();
    expect(() => expectNotListed(t, 'PARTNER-TENANT-BINDING', 'other tenant', pages(['b1'], false), WANTED)).toThrow();
    expect(records).toMatchObject([{ how: 'check', ok: false }]);
  });

  it('is unverified when the business was not seen but pages were left unread', () => {
    const { t, records } = stubContext();
    expect(expectNotListed(t, 'PARTNER-TENANT-BINDING', 'other tenant', pages(['x'], false), WANTED)).toBe(false);
    expect(records).toMatchObject([{ how: 'unverified' }]);
  });

  it.each([
    ['every page read without it', pages(['x'], true)],
    ['a 403 (nothing readable)', pages([], false, 403)],
  ])('passes on %s', (_what, read) => {
    const { t, records } = stubContext();
    expect(expectNotListed(t, 'PARTNER-TENANT-BINDING', 'other tenant', read, WANTED)).toBe(true);
    expect(records).toMatchObject([{ how: 'check', ok: true }]);
  });
});

describe('expectUserData', () => {
  it('with a granted business, looks for that business', () => {
    const { t, records } = stubContext();
    expect(expectUserData(t, 'PARTNER-MINT', 'works', pages(['b1'], true), { kind: 'business', ...WANTED })).toBe(true);
    expect(records).toMatchObject([{ how: 'check', ok: true }]);
  });

  it.each([
    ['some business listed', pages(['z'], false), true],
    ['an empty listing', pages([], true), false],
  ])('without one, needs %s', (_what, read, ok) => {
    const { t, records } = stubContext();
    expect(expectUserData(t, 'PARTNER-MINT', 'works', read, { kind: 'some' }, { soft: true })).toBe(ok);
    expect(records).toMatchObject([{ how: 'soft', ok }]);
  });
});
