/**
 * The paging faults of business search (docs/reference-server.md): pages that overlap. Without a
 * fault, page `index` starts at index × pageSize.
 */
import type { TenantContext } from '../context.js';
import type { Business } from '../directory.js';

/**
 * Where page `index` (0-based) starts. Fault `search-pages-overlap`: one item early after the first
 * page; fault `search-pages-start-late`: one item late after the first page (a match skipped at each
 * page boundary, and the page after the last empty). Fault `search-offset-is-page-index`: at the index itself (`OFFSET pageIndex`, a classic
 * bug), so each page is the previous one moved on by one item.
 */
export function pageStart(ctx: TenantContext, index: number, pageSize: number): number {
  if (ctx.ref.faults.has('search-offset-is-page-index')) return index;
  if (index > 0 && ctx.ref.faults.has('search-pages-start-late')) return index * pageSize + 1;
  return index * pageSize - (index > 0 && ctx.ref.faults.has('search-pages-overlap') ? 1 : 0);
}

/**
 * What a caller's search lists, in order. Fault `search-offset-is-page-index` also lists, after the
 * caller's own, the newest business of the tenant the caller may not read (counted in totalCount):
 * read to totalCount with its repeats counted, the pages never reach it.
 */
export function listedTo(ctx: TenantContext, sorted: readonly Business[], callerId: string | undefined): readonly Business[] {
  if (callerId === undefined || !ctx.ref.faults.has('search-offset-is-page-index')) return sorted;
  const newest = [...ctx.tenant.businesses.values()].filter((b) => !b.readers.has(callerId)).at(-1);
  return newest === undefined || sorted.includes(newest) ? sorted : [...sorted, newest];
}
