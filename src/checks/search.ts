/**
 * Checks on business search answers (spec §2 "Business search result", §4.3): the shape, paging
 * consistency, and whether a business is listed across every page tack read.
 */
import { describeResponse } from './describe-response.js';
import { finding, type Finding } from './finding.js';
import type { HttpResponse } from '../harness/http.js';
import { schemaProblems, searchResultSchema } from './search-schema.js';

/** A business tack looks for: its id and, where ids may repeat across tenants, its name too. */
export interface Wanted {
  readonly id: string;
  readonly name?: string;
}

export interface Item {
  /** As a string: the spec does not say whether ids are strings or numbers. */
  readonly id: string;
  readonly name: unknown;
}

export interface SearchPages {
  /** The answer to the first request. */
  readonly first: HttpResponse;
  /** The first answer had an `items` array. */
  readonly parsed: boolean;
  /** Items of every page read, in order. */
  readonly items: readonly Item[];
  /** Index (0-based, in reading order) of the page each id was first seen on. */
  readonly pageOfItem: ReadonlyMap<string, number>;
  /** Items read again (the same id and name) on a later page, or twice on one: pages that overlap. */
  readonly repeats: readonly Repeat[];
  readonly pages: number;
  /** Each page read: its item count and the pageSize, totalCount and pageIndex it reported (integers, else undefined). */
  readonly sizes: readonly PageRead[];
  /** The answer of each page read, in order (the first is `first`). */
  readonly responses: readonly HttpResponse[];
  readonly totalCount: number | undefined;
  /** Every match was read (the pages hold totalCount different items). */
  readonly complete: boolean;
  /** Why not complete. */
  readonly incomplete: string | undefined;
  /**
   * The first page read that was empty while its totalCount said more matches than the pages before
   * it held (pages that start late, a walk off the end): a paging defect, not a walk tack could not make.
   */
  readonly emptyPage?: EmptyPage | undefined;
  /** The first page read that held new items but reported another pageIndex than its position (a constant 0, say). */
  readonly wrongPageIndex?: WrongPageIndex | undefined;
}

export interface PageRead {
  readonly items: number;
  readonly pageSize: number | undefined;
  readonly totalCount?: number | undefined;
  readonly pageIndex?: number | undefined;
}

/** A page (1-based in reading order) that was served, with the pageIndex it said and the one its position gives. */
export interface WrongPageIndex {
  readonly page: number;
  readonly said: number;
  readonly expected: number;
}

/** A page (1-based) with no items, the totalCount it said, and how many different matches were read before it. */
export interface EmptyPage {
  readonly page: number;
  readonly totalCount: number;
  readonly read: number;
}

/** An item read again: its id, the page (1-based) it was first on, and the page it came back on. */
export interface Repeat {
  readonly id: string;
  readonly firstPage: number;
  readonly page: number;
}

/** What makes two items the same match: the id, and the name (ids may repeat across tenants). */
export function itemKey(item: Item): string {
  return JSON.stringify([item.id, item.name ?? null]);
}

/** 200 with items (id, name, registrationNumber), pageIndex, pageSize ≥ 1, totalCount, consistent. */
export function searchSchema(res: HttpResponse): Finding {
  const parsed = searchResultSchema.safeParse(res.json);
  const ok = res.status === 200 && parsed.success;
  return finding(ok, '200 with the search result schema', ok ? 'holds' : res.status !== 200 ? describeResponse(res) : schemaProblems(parsed.error!));
}

export function lists(pages: SearchPages, wanted: Wanted): boolean {
  return pages.items.some((item) => item.id === wanted.id && (wanted.name === undefined || item.name === wanted.name));
}

/** The business is on one of the pages read. */
export function listed(pages: SearchPages, wanted: Wanted): Finding {
  const ok = lists(pages, wanted);
  return finding(
    ok,
    `business ${wanted.id} listed`,
    ok ? 'listed' : pages.first.status === 200 ? `not listed (${pages.items.length} items on ${pages.pages} page(s))` : describeResponse(pages.first),
  );
}

/** The business is on none of the pages read; a 403 (nothing readable) lists nothing. */
export function notListed(pages: SearchPages, wanted: Wanted): Finding {
  const forbidden = pages.first.status === 403;
  const listing = pages.first.status === 200 && pages.parsed;
  const ok = forbidden || (listing && !lists(pages, wanted));
  const actual = forbidden
    ? '403'
    : !listing
      ? describeResponse(pages.first)
      : ok
        ? `not listed (${pages.items.length} items on ${pages.pages} page(s))`
        : `listed on page ${pageOf(pages, wanted)}`;
  return finding(ok, `business ${wanted.id} not listed (a 200 without it, or 403)`, actual);
}

/** At least one business listed (the first page is enough). */
export function listsSomething(pages: SearchPages): Finding {
  const ok = pages.first.status === 200 && pages.parsed && pages.items.length > 0;
  return finding(ok, '200 listing at least one business', pages.first.status === 200 ? `${pages.items.length} items` : describeResponse(pages.first));
}

/** Paging through lists each match once: no item comes back on a later page (pages do not overlap). */
export function eachMatchOnce(pages: SearchPages): Finding {
  const [first] = pages.repeats;
  return finding(
    first === undefined,
    'each match on one page only',
    first === undefined
      ? `${pages.items.length} items on ${pages.pages} page(s), none repeated`
      : `business ${first.id} on page ${first.page} again (first on page ${first.firstPage}); ${pages.repeats.length} repeat(s) in all`,
  );
}

/** No page read is empty while its totalCount says more matches than the pages before it held. */
export function noEmptyPageBeforeTotal(pages: SearchPages): Finding {
  const empty = pages.emptyPage;
  return finding(
    empty === undefined,
    'no empty page while totalCount says more matches',
    empty === undefined
      ? `${pages.pages} page(s) read, none empty before totalCount`
      : `page ${empty.page} empty with totalCount ${empty.totalCount}, after ${empty.read} different match(es)`,
  );
}

/** Every page read says the same totalCount: the count of the matches, not of what is left, nor a guess that changes. */
export function sameTotalOnEveryPage(pages: SearchPages): Finding {
  const first = pages.sizes[0]?.totalCount;
  const other = pages.sizes.findIndex((s) => s.totalCount !== undefined && s.totalCount !== first);
  return finding(
    other === -1,
    'the same totalCount on every page',
    other === -1
      ? `totalCount ${String(first)} on ${pages.pages} page(s)`
      : `totalCount ${String(first)} on page 1, ${String(pages.sizes[other]!.totalCount)} on page ${other + 1}`,
  );
}

/** Every page served says its own position as pageIndex (counted from the first page's). */
export function pageIndexIsPosition(pages: SearchPages): Finding {
  const wrong = pages.wrongPageIndex;
  return finding(
    wrong === undefined,
    "each page's pageIndex is its position",
    wrong === undefined
      ? `${pages.pages} page(s) read, each with its own pageIndex`
      : `page ${wrong.page} held new items but said pageIndex ${wrong.said}, not ${wrong.expected}`,
  );
}

/** totalCount counts every match: at least the businesses known to match, and as many as the pages held. */
export function totalCountsAll(totalCount: number, atLeast: number): Finding {
  return finding(totalCount >= atLeast, `totalCount of at least ${atLeast}`, `totalCount ${totalCount}`);
}

function pageOf(pages: SearchPages, wanted: Wanted): number {
  return (pages.pageOfItem.get(wanted.id) ?? 0) + 1;
}
