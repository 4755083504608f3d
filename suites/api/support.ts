/**
 * Reading business-search answers (spec §4.3) the way the checks need them: which ids a page
 * lists, and whether it says there is more. Paging parameters are "not shown" in the spec, so tack
 * never asks for a page: it reads the first one, and where a business it looks for is not on it
 * while `totalCount` says there are more, that is reported as an observation, never a failure.
 */
import { describe, type TestContext } from '../../src/harness/context.js';
import type { HttpResponse } from '../../src/harness/http.js';
import type { Capability } from '../../src/harness/types.js';
import type { RuleId } from '../../src/rules/catalog.js';

export interface Listing {
  /** Ids of the first page, as strings (the spec does not say whether ids are strings or numbers). */
  readonly ids: readonly string[];
  /** The first page's items as id (string) and name. */
  readonly items: readonly { readonly id: string; readonly name: unknown }[];
  /** True when `totalCount` says more matches exist than this page holds. */
  readonly more: boolean;
}

/** The listing of a 200 answer, or undefined when the body has no `items` array. */
export function listingOf(res: HttpResponse): Listing | undefined {
  if (res.status !== 200) return undefined;
  const body = res.json as { items?: unknown; totalCount?: unknown } | undefined;
  if (!body || !Array.isArray(body.items)) return undefined;
  const items = body.items.map((item) => {
    const record = item !== null && typeof item === 'object' ? (item as { id?: unknown; name?: unknown }) : { id: item, name: undefined };
    return { id: String(record.id), name: record.name };
  });
  const more = typeof body.totalCount === 'number' && body.totalCount > body.items.length;
  return { ids: items.map((i) => i.id), items, more };
}

/**
 * A business tack looks for: its id and, where ids may repeat (two tenants may number their
 * businesses alike), its name too.
 */
export interface Wanted {
  readonly id: string;
  readonly name?: string;
}

function lists(listing: Listing, wanted: Wanted): boolean {
  return listing.items.some((item) => item.id === wanted.id && (wanted.name === undefined || item.name === wanted.name));
}

/**
 * The token was accepted: 200, or 403 for a caller who may read nothing. The spec implies an
 * empty 200 for such a caller (§4.3, "at least read access to one business is needed for a
 * non-empty result") but also lists 403 for a caller who "lacks the permission" (§7); both are
 * taken as "authenticated", and a 403 is noted.
 */
export function acceptedBy(t: TestContext, rule: RuleId, res: HttpResponse, what: string): boolean {
  if (res.status === 403) t.observe(rule, `${what}: search answered 403 for a caller who may read no business (an empty 200 would do too)`);
  return res.status === 200 || res.status === 403;
}

/** The business is on the first page (a check), or may be on a later one (an observation). */
export function expectListed(t: TestContext, rule: RuleId, title: string, res: HttpResponse, business: Wanted | string, options: { soft?: boolean } = {}): boolean {
  const wanted = typeof business === 'string' ? { id: business } : business;
  const id = wanted.id;
  const listing = listingOf(res);
  const record = options.soft ? t.soft.bind(t) : t.check.bind(t);
  if (!listing) {
    record(rule, title, false, `200 with items listing business ${id}`, describe(res));
    return false;
  }
  if (lists(listing, wanted)) {
    record(rule, title, true, `business ${id} listed`, 'listed');
    return true;
  }
  if (listing.more) {
    t.observe(rule, `${title}: business ${id} is not on the first page and totalCount says there are more; tack does not page (paging parameters are not in the spec)`);
    return false;
  }
  record(rule, title, false, `business ${id} listed`, `not listed (${listing.ids.length} items)`);
  return false;
}

/** The business is not listed: a 200 without it, or a 403 (the caller may read nothing). */
export function expectNotListed(t: TestContext, rule: RuleId, title: string, res: HttpResponse, business: Wanted | string, options: { soft?: boolean } = {}): boolean {
  const wanted = typeof business === 'string' ? { id: business } : business;
  const id = wanted.id;
  const record = options.soft ? t.soft.bind(t) : t.check.bind(t);
  if (res.status === 403) {
    t.observe(rule, `${title}: search answered 403 (nothing readable)`);
    record(rule, title, true, `business ${id} not listed`, '403');
    return true;
  }
  const listing = listingOf(res);
  if (!listing) {
    record(rule, title, false, `200 without business ${id}, or 403`, describe(res));
    return false;
  }
  const ok = !lists(listing, wanted);
  record(rule, title, ok, `business ${id} not listed`, ok ? `not listed (${listing.ids.length} items)` : 'listed');
  return ok;
}

/** The hook offers every capability named (for parts of a test guarded by it). */
export function hookHas(t: TestContext, ...capabilities: Capability[]): boolean {
  const hook = t.parts.hook;
  return hook !== undefined && capabilities.every((c) => hook.has(c));
}

/** Exchanges a chain's current token and insists on an access token (precondition). */
export async function accessTokenOf(chain: import('../../src/harness/tokens.js').TokenChain): Promise<string> {
  const exchanged = await chain.exchange();
  if (!exchanged.accessToken) {
    throw new Error(`could not exchange the API token at the sign-in server (precondition): ${describe(exchanged.res)}`);
  }
  return exchanged.accessToken;
}
