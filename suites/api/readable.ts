/**
 * Only readable businesses are listed (spec §4.3), and a removed permission is gone on the very
 * next request with the same access token. Fresh user, two fresh businesses, read on one.
 */
import { sampleBusinesses } from '../../fixtures/businesses.js';
import { describe, type TestContext } from '../../src/harness/context.js';
import type { TokenChain } from '../../src/harness/tokens.js';
import type { TestCase } from '../../src/harness/types.js';
import { accessTokenOf, expectListed, expectNotListed, listingOf } from './support.js';

const HOOK_SETUP = ['hook:users', 'hook:api-tokens', 'hook:businesses', 'hook:access'] as const;

/** A fresh user of tenant A who may read one new business and not another. */
async function oneReadableOneNot(t: TestContext): Promise<{ chain: TokenChain; readable: string; hidden: string }> {
  const chain = await t.tokens.own();
  const [a, b] = sampleBusinesses(t.parts.runId, t.fc.seed, 2);
  const readable = await t.hook.createBusiness(chain.tenant, a!);
  const hidden = await t.hook.createBusiness(chain.tenant, b!);
  await t.hook.setAccess(chain.tenant, readable, chain.email, 'read');
  // Explicitly none: what access a new user has by default, neither the spec nor the hook says.
  await t.hook.setAccess(chain.tenant, hidden, chain.email, 'none');
  return { chain, readable, hidden };
}

export const onlyReadable: TestCase = {
  id: 'api/search-only-readable',
  title: 'Search lists the business the caller may read and not the one it may not',
  rules: ['SEARCH-ONLY-READABLE'],
  needs: [...HOOK_SETUP],
  async run(t) {
    const { chain, readable, hidden } = await oneReadableOneNot(t);
    const res = await t.api.search(t.target.baseUrl, await accessTokenOf(chain));
    expectListed(t, 'SEARCH-ONLY-READABLE', 'the readable business is listed', res, readable, { soft: true });
    // The tenant may hold other businesses; only the one created unreadable is known to be hidden.
    expectNotListed(t, 'SEARCH-ONLY-READABLE', 'the business without access is not listed', res, hidden);
  },
};

export const permissionRemoval: TestCase = {
  id: 'api/search-permission-removal',
  title: 'A removed read permission is gone on the next request with the same access token',
  rules: ['SEARCH-PERMISSION-REMOVAL'],
  needs: [...HOOK_SETUP],
  async run(t) {
    const { chain, readable } = await oneReadableOneNot(t);
    const access = await accessTokenOf(chain);
    const before = await t.api.search(t.target.baseUrl, access);
    const listing = listingOf(before);
    if (!listing?.ids.includes(readable)) {
      // A precondition (SEARCH-ONLY-READABLE judges it), not this rule's verdict.
      throw new Error(`the readable business is not listed before the removal (${describe(before)}${listing?.more ? ', more pages exist' : ''}): removal cannot be observed`);
    }
    await t.hook.setAccess(chain.tenant, readable, chain.email, 'none');
    const after = await t.api.search(t.target.baseUrl, access);
    expectNotListed(t, 'SEARCH-PERMISSION-REMOVAL', 'gone on the very next request with the same access token', after, readable);
  },
};
