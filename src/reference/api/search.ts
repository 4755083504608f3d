/**
 * GET /api/businesses/search: the businesses of the host's tenant that the caller may read.
 *
 * Steps: authenticate (401), checkTenant (403 wrong_tenant for a token narrowed to another tenant),
 * checkMembership (403 not_a_member), readPaging (400), readableBusinesses (from the live access
 * lists, on every request), then filter, sort by name, page, answer
 * `{"items":[{"id","name","registrationNumber"}],"pageIndex","pageSize","totalCount"}`.
 *
 * Query parameters: `q` (case-insensitive substring of name or registration number; optional),
 * `pageIndex` (0-based, default 0), `pageSize` (1..100, default 20; larger values are capped at 100
 * and the answer says 100). Anything that is not a non-negative integer, or pageSize 0: 400.
 */
import type { Dialect, TenantContext } from '../context.js';
import type { Business } from '../directory.js';
import { badRequest, forbidden, HttpError } from '../errors.js';
import type { FaultSet } from '../faults.js';
import { sendJson } from '../respond.js';
import { authenticate, type Caller } from './bearer.js';
import { listedTo, pageStart } from './paging-faults.js';

const MAX_PAGE_SIZE = 100;
/** Bound of the `permission-cached-per-token` fault's cache. */
const CACHE_LIMIT = 10_000;

interface Paging {
  readonly q: string;
  readonly pageIndex: number;
  readonly pageSize: number;
}

export function searchBusinesses(ctx: TenantContext): void {
  const caller = authenticate(ctx);
  if (caller === undefined) return answer(ctx, [], readPaging(ctx.query, ctx.ref.config.dialect, ctx.ref.faults));
  checkTenant(ctx, caller);
  checkMembership(ctx, caller);
  const paging = readPaging(ctx.query, ctx.ref.config.dialect, ctx.ref.faults);
  const matches = readableBusinesses(ctx, caller).filter((business) => matchesQuery(business, paging.q));
  answer(ctx, matches, paging, caller);
}

/** A partner token works only at the tenant that minted it (spec §4.1 rule 1). PARTNER-TENANT-NARROWING. */
function checkTenant(ctx: TenantContext, caller: Caller): void {
  if (caller.claims.kind === 'partner' && ctx.ref.faults.has('partner-token-forbidden')) throw forbidden('forbidden', 'Partner tokens may not search.');
  const narrowedTo = caller.claims.tenant;
  if (narrowedTo !== null && narrowedTo !== ctx.tenant.name) {
    throw forbidden('wrong_tenant', 'This access token was issued for another tenant.');
  }
}

// SEARCH-NON-MEMBER: a caller who is not a member of the host tenant gets 403.
function checkMembership(ctx: TenantContext, caller: Caller): void {
  if (ctx.tenant.members.has(caller.user.id) || ctx.ref.faults.has('search-non-member-allowed')) return;
  throw forbidden('not_a_member', 'The caller is not a member of this tenant.');
}

function readPaging(query: string, dialect: Dialect, faults: FaultSet): Paging {
  const params = new URLSearchParams(query);
  const { pageBase, pageParams } = dialect;
  return {
    q: (params.get('q') ?? '').trim().toLowerCase(),
    pageIndex: integerParam(params, pageParams.index, pageBase, faults, pageBase),
    pageSize: Math.min(integerParam(params, pageParams.size, dialect.defaultPageSize, faults, 1), MAX_PAGE_SIZE),
  };
}

function integerParam(params: URLSearchParams, name: string, fallback: number, faults: FaultSet, min = 0): number {
  const raw = params.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < min) {
    // SEARCH-NO-SERVER-ERROR: paging parameters that are not numbers, or out of range, are 400.
    if (faults.has('search-bad-paging-500')) throw new HttpError(500, 'server_error', 'The paging parameters could not be read.');
    throw badRequest('invalid_query', `${name} must be an integer of at least ${min}.`);
  }
  return Number(raw);
}

/** Read from the live access lists on every request, so a removed permission is gone at once. */
// SEARCH-ONLY-READABLE, SEARCH-PERMISSION-REMOVAL: the live access lists, on every request.
function readableBusinesses(ctx: TenantContext, caller: Caller): readonly Business[] {
  const { faults, permissionCache } = ctx.ref;
  if (faults.has('permission-cached-per-token')) {
    const cached = permissionCache.get(caller.token);
    if (cached !== undefined) return cached;
    const computed = computeReadable(ctx, caller);
    if (permissionCache.size >= CACHE_LIMIT) permissionCache.clear();
    permissionCache.set(caller.token, computed);
    return computed;
  }
  return computeReadable(ctx, caller);
}

// SEARCH-TENANT-FROM-HOST: only the host tenant's businesses.
function computeReadable(ctx: TenantContext, caller: Caller): readonly Business[] {
  const { faults, directory } = ctx.ref;
  const everything = faults.has('search-lists-unreadable') || (caller.claims.kind === 'partner' && faults.has('partner-token-admin-permissions'));
  const tenants = faults.has('search-ignores-host-tenant') ? [...caller.user.tenants].flatMap((name) => directory.tenant(name) ?? []) : [ctx.tenant];
  const out: Business[] = [];
  for (const tenant of tenants) {
    for (const business of tenant.businesses.values()) {
      if (everything || business.readers.has(caller.user.id)) out.push(business);
    }
  }
  return out;
}

/**
 * Fault `search-leaks-on-later-pages`: the first page holds only readable businesses; the pages after
 * it are cut from this list, the tenant's unreadable businesses followed by the rest of the readable
 * ones (and totalCount counts them all). Undefined without the fault.
 */
function leakOnLaterPages(ctx: TenantContext, sorted: readonly Business[], pageSize: number): readonly Business[] | undefined {
  if (!ctx.ref.faults.has('search-leaks-on-later-pages')) return undefined;
  const listed = new Set(sorted);
  const unreadable = [...ctx.tenant.businesses.values()].filter((b) => !listed.has(b)).sort(byName);
  return [...unreadable, ...sorted.slice(pageSize)];
}

function matchesQuery(business: Business, q: string): boolean {
  return q === '' || business.name.toLowerCase().includes(q) || business.registrationNumber.toLowerCase().includes(q);
}

/** SEARCH-SHAPE: one page of at most pageSize items, totalCount counting every match. */
function answer(ctx: TenantContext, matches: readonly Business[], paging: Paging, caller?: Caller): void {
  const sorted = listedTo(ctx, [...matches].sort(byName), caller?.user.id);
  const index = paging.pageIndex - ctx.ref.config.dialect.pageBase;
  const start = pageStart(ctx, index, paging.pageSize);
  const leak = leakOnLaterPages(ctx, sorted, paging.pageSize);
  const page = ctx.ref.faults.has('search-ignores-page-size')
    ? sorted
    : leak && index > 0
      ? leak.slice(start - paging.pageSize, start)
      : sorted.slice(start, start + paging.pageSize);
  const items = page.map(({ id, name, registrationNumber }) => ({ id, name, registrationNumber }));
  const partnerShape = caller?.claims.kind === 'partner' && ctx.ref.faults.has('partner-search-page-index-string');
  const pageIndex = ctx.ref.faults.has('search-page-index-constant') ? ctx.ref.config.dialect.pageBase : paging.pageIndex;
  const body: Record<string, unknown> = { items, pageIndex: partnerShape ? String(pageIndex) : pageIndex, pageSize: paging.pageSize };
  const laterPageOff = ctx.ref.faults.has('search-total-varies-by-page') && index > 0 ? 1 : 0;
  if (!ctx.ref.faults.has('search-omits-total-count'))
    body['totalCount'] = sorted.length + (leak ? leak.length - Math.max(0, sorted.length - paging.pageSize) : 0) - laterPageOff;
  sendJson(ctx.res, 200, body);
}

function byName(a: Business, b: Business): number {
  const an = a.name.toLowerCase();
  const bn = b.name.toLowerCase();
  return an < bn ? -1 : an > bn ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
