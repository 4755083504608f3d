/**
 * Reading every page of a business search (spec §4.3). The spec does not name the paging
 * parameters: tack sends `TACK_PAGE_INDEX_PARAM` (default `pageIndex`) and, when asked for a small
 * page, `TACK_PAGE_SIZE_PARAM` (default `pageSize`), numbers the pages from the first page's
 * `pageIndex` (0- or 1-based alike), and stops when the pages hold `totalCount` different items.
 * Only different items count: pages that overlap (an off-by-one offset) reach `totalCount` with
 * repeats before the last match is read, and "not listed" would then be said of a business tack
 * never saw. A repeat is kept (`repeats`) as the paging defect it is (SEARCH-SHAPE judges it). A
 * target that ignores the parameters (the next page repeats the first, or says another pageIndex)
 * leaves the result incomplete, with the reason: "not listed" is then not a verdict. An empty page
 * while its totalCount says more than was read (pages that start late) ends the walk too, and is kept
 * (`emptyPage`) as the paging defect it is. A page that holds new items but says another pageIndex
 * than its position (a constant 0) was served all the same: the walk goes on, and the wrong pageIndex
 * is kept (`wrongPageIndex`) as a defect of the answer, not blamed on the parameter names.
 */
import type { TestContext } from '../runner/test-context.js';
import { describeResponse } from '../checks/describe-response.js';
import type { HttpResponse } from '../harness/http.js';
import { type EmptyPage, itemKey, type Item, type PageRead, type Repeat, type SearchPages, type WrongPageIndex } from '../checks/search.js';

const MAX_PAGES = 25;

interface Parsed {
  readonly items: Item[];
  readonly pageIndex: number | undefined;
  readonly pageSize: number | undefined;
  readonly totalCount: number | undefined;
}

function parse(res: HttpResponse): Parsed | undefined {
  if (res.status !== 200) return undefined;
  const body = res.json as { items?: unknown; pageIndex?: unknown; pageSize?: unknown; totalCount?: unknown } | undefined;
  if (!body || !Array.isArray(body.items)) return undefined;
  const items = body.items.map((item): Item => {
    const record = item !== null && typeof item === 'object' ? (item as { id?: unknown; name?: unknown }) : { id: item, name: undefined };
    return { id: String(record.id), name: record.name };
  });
  const num = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);
  return { items, pageIndex: num(body.pageIndex), pageSize: num(body.pageSize), totalCount: num(body.totalCount) };
}

/** Reads the first page and, while totalCount says there are more, the next ones. */
export async function searchPages(t: TestContext, baseUrl: string, token: string | undefined, options: { pageSize?: number } = {}): Promise<SearchPages> {
  const { pageIndexParam, pageSizeParam } = t.target.paging;
  const sizeQuery: Record<string, string> = options.pageSize !== undefined ? { [pageSizeParam]: String(options.pageSize) } : {};
  const first = await t.api.search(baseUrl, token, sizeQuery);
  const firstPage = parse(first);
  const items: Item[] = [];
  const pageOfItem = new Map<string, number>();
  /** The page each item (id and name) was first read on. */
  const firstSeen = new Map<string, number>();
  const repeats: Repeat[] = [];
  let emptyPage: EmptyPage | undefined;
  let wrongPageIndex: WrongPageIndex | undefined;
  const sizeOf = (read: Parsed): PageRead => ({ items: read.items.length, pageSize: read.pageSize, totalCount: read.totalCount, pageIndex: read.pageIndex });
  /** Notes the first page read empty while its own totalCount says more than was read before it. */
  const emptyAt = (page: number, read: Parsed) => {
    const said = read.totalCount;
    if (emptyPage === undefined && read.items.length === 0 && said !== undefined && said > firstSeen.size)
      emptyPage = { page: page + 1, totalCount: said, read: firstSeen.size };
  };
  const take = (page: number, read: readonly Item[]) => {
    for (const item of read) {
      const key = itemKey(item);
      const before = firstSeen.get(key);
      if (before === undefined) firstSeen.set(key, page);
      else repeats.push({ id: item.id, firstPage: before + 1, page: page + 1 });
      if (!pageOfItem.has(item.id)) pageOfItem.set(item.id, page);
      items.push(item);
    }
  };
  if (firstPage) emptyAt(0, firstPage);
  take(0, firstPage?.items ?? []);
  const sizes = firstPage ? [sizeOf(firstPage)] : [];
  const responses = [first];
  const done = (complete: boolean, incomplete?: string): SearchPages => ({
    first,
    parsed: firstPage !== undefined,
    items,
    pageOfItem,
    repeats,
    pages: sizes.length,
    sizes,
    responses,
    totalCount: firstPage?.totalCount,
    complete,
    incomplete: complete ? undefined : incomplete,
    emptyPage,
    wrongPageIndex,
  });
  if (!firstPage) return done(false, `search answered ${describeResponse(first)}`);
  const total = firstPage.totalCount;
  if (total === undefined) return done(false, 'the answer has no totalCount, so tack cannot tell whether more pages exist');
  const base = firstPage.pageIndex ?? 0;
  let previous = firstPage.items.map((i) => i.id).join('\n');
  for (let page = 1; firstSeen.size < total; page++) {
    if (page >= MAX_PAGES) return done(false, `more than ${MAX_PAGES} pages: tack reads at most ${MAX_PAGES}`);
    if (sizes[sizes.length - 1]!.items === 0) return done(false, `page ${page} was empty although totalCount is ${total}`);
    const index = base + page;
    const res = await t.api.search(baseUrl, token, { ...sizeQuery, [pageIndexParam]: String(index) });
    const next = parse(res);
    if (!next) return done(false, `page ${page + 1} (${pageIndexParam}=${index}) answered ${describeResponse(res)}`);
    const ids = next.items.map((i) => i.id).join('\n');
    // New items under a wrong pageIndex: the page was served, its pageIndex is the defect.
    const served = ids !== previous && ids !== '';
    if (served && next.pageIndex !== undefined && next.pageIndex !== index) wrongPageIndex ??= { page: page + 1, said: next.pageIndex, expected: index };
    if ((next.pageIndex !== undefined && next.pageIndex !== index && !served) || (ids === previous && ids !== '')) {
      return done(
        false,
        `the target did not serve page ${page + 1} for ${pageIndexParam}=${index}: the paging parameters are not in the spec; ` +
          "set TACK_PAGE_INDEX_PARAM and TACK_PAGE_SIZE_PARAM to the target's names",
      );
    }
    previous = ids;
    emptyAt(page, next);
    take(page, next.items);
    sizes.push(sizeOf(next));
    responses.push(res);
  }
  return done(true);
}
