/**
 * Only readable businesses are listed (spec §4.3), on every page; and a removed permission is gone
 * on the very next request with the same access token. The user reads more businesses than one
 * page holds (./crowd.ts), so a business listed where it must not be is looked for on every page.
 */
import { sampleBusinesses } from '../../fixtures/businesses.js';
import { describeResponse } from '../../src/checks/describe-response.js';
import type { TestCase } from '../../src/runner/test-case.js';
import { accessTokenOf } from '../../src/steps/token-exchange.js';
import { crowdedUser, SMALL_PAGE } from './crowd.js';
import { expectListed, expectNotListed } from '../../src/steps/listing.js';
import { lists } from '../../src/checks/search.js';
import { searchPages } from '../../src/steps/paging.js';

const HOOK_SETUP = ['hook:users', 'hook:api-tokens', 'hook:businesses', 'hook:access'] as const;

export const onlyReadable: TestCase = {
  id: 'api/search-only-readable',
  title: 'Search lists the businesses the caller may read and, on no page, the one it may not',
  rules: ['SEARCH-ONLY-READABLE'],
  needs: [...HOOK_SETUP],
  async run(t) {
    const crowd = await crowdedUser(t, { hidden: true });
    const pages = await searchPages(t, t.target.baseUrl, crowd.access, { pageSize: SMALL_PAGE });
    for (const [i, id] of crowd.readable.entries())
      expectListed(t, 'SEARCH-ONLY-READABLE', `readable business ${i + 1} of ${crowd.readable.length} is listed`, pages, { id }, { soft: true });
    // The tenant may hold other businesses; only the one made unreadable is known to be hidden.
    expectNotListed(t, 'SEARCH-ONLY-READABLE', 'the business without access is on no page', pages, { id: crowd.hidden! });
  },
};

export const permissionRemoval: TestCase = {
  id: 'api/search-permission-removal',
  title: 'A removed read permission is gone on the next request with the same access token',
  rules: ['SEARCH-PERMISSION-REMOVAL'],
  needs: [...HOOK_SETUP],
  async run(t) {
    const chain = await t.tokens.own();
    const [draft] = sampleBusinesses(t.parts.runId, t.fc.seed, 1);
    const readable = await t.hook.createBusiness(chain.tenant, draft!);
    await t.hook.setAccess(chain.tenant, readable, chain.email, 'read');
    const access = await accessTokenOf(chain);
    const before = await searchPages(t, t.target.baseUrl, access);
    if (!lists(before, { id: readable })) {
      // A precondition (SEARCH-ONLY-READABLE judges it), not this rule's verdict.
      throw new Error(`the readable business is not listed before the removal (${describeResponse(before.first)}): removal cannot be observed`);
    }
    await t.hook.setAccess(chain.tenant, readable, chain.email, 'none');
    const after = await searchPages(t, t.target.baseUrl, access);
    expectNotListed(t, 'SEARCH-PERMISSION-REMOVAL', 'gone on the very next request with the same access token', after, { id: readable });
  },
};
