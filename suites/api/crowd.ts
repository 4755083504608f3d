/**
 * A fresh user (hook) who reads more businesses than one page of search holds, so that paging is
 * exercised (spec §2: items, pageIndex, pageSize, totalCount). tack asks for a small page
 * (TACK_PAGE_SIZE_PARAM = 3; the spec does not name the parameter, so a target may ignore it) and
 * makes as many businesses readable as the page size the target reports, plus one. Optionally one
 * more business of the tenant is made explicitly unreadable.
 */
import { sampleBusinesses } from '../../fixtures/businesses.js';
import type { TestContext } from '../../src/runner/test-context.js';
import type { TokenChain } from '../../src/harness/tokens.js';
import { accessTokenOf } from '../../src/steps/token-exchange.js';

/** The page size tack asks for. */
export const SMALL_PAGE = 3;
/** Most businesses tack makes to fill a page; a larger reported page size is not filled. */
const MAX_FILL = 60;

interface Crowd {
  readonly chain: TokenChain;
  readonly access: string;
  /** Ids of the businesses the user reads (pageSize + 1 of them, or 1 when `unfilled`). */
  readonly readable: readonly string[];
  readonly hidden: string | undefined;
  /** The page size the target reported for a request of SMALL_PAGE. */
  readonly pageSize: number | undefined;
  /** Why the page could not be overfilled (the page size is unknown or too large). */
  readonly unfilled: string | undefined;
}

export async function crowdedUser(t: TestContext, options: { hidden: boolean }): Promise<Crowd> {
  const chain = await t.tokens.own();
  const tenant = chain.tenant;
  const drafts = sampleBusinesses(t.parts.runId, t.fc.seed, MAX_FILL + 2);
  let hidden: string | undefined;
  if (options.hidden) {
    hidden = await t.hook.createBusiness(tenant, drafts.pop()!);
    // Explicitly none: what access a new user has by default, neither the spec nor the hook says.
    await t.hook.setAccess(tenant, hidden, chain.email, 'none');
  }
  const readable: string[] = [];
  const grant = async () => {
    const id = await t.hook.createBusiness(tenant, drafts.pop()!);
    await t.hook.setAccess(tenant, id, chain.email, 'read');
    readable.push(id);
  };
  await grant();
  const probeToken = await accessTokenOf(chain);
  const probe = await t.api.search(t.target.baseUrl, probeToken, { [t.target.paging.pageSizeParam]: String(SMALL_PAGE) });
  const reported = (probe.json as { pageSize?: unknown } | undefined)?.pageSize;
  const pageSize = typeof reported === 'number' && Number.isInteger(reported) && reported >= 1 ? reported : undefined;
  let unfilled: string | undefined;
  if (pageSize === undefined) unfilled = `search reported no usable pageSize (answered ${probe.status})`;
  else if (pageSize > MAX_FILL)
    unfilled =
      `the target reports pageSize ${pageSize} although ${SMALL_PAGE} was asked for ` +
      `(${t.target.paging.pageSizeParam}; set TACK_PAGE_SIZE_PARAM to the target's name): tack fills at most ${MAX_FILL}`;
  else while (readable.length <= pageSize) await grant();
  // A fresh access token for the checks: what the probe saw is not what the user reads now.
  const access = await accessTokenOf(chain);
  return { chain, access, readable, hidden, pageSize, unfilled };
}
