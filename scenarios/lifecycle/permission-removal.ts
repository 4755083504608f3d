/**
 * Permission removal (spec §4.3: "a permission removed from the user is lost on the next
 * request"): a user may read two businesses; one permission is removed and, with the very same
 * access token, the next search no longer lists that business while the other stays. When the
 * partner key is configured, a partner-minted token for the same user loses the second permission
 * the same way.
 */
import { sampleBusinesses } from '../../fixtures/businesses.js';
import { describeResponse } from '../../src/checks/describe-response.js';
import type { TestCase } from '../../src/runner/test-case.js';
import { expectListed, expectNotListed } from '../../src/steps/listing.js';
import { searchPages } from '../../src/steps/paging.js';
import { isSuccess } from '../../src/checks/response.js';
import { lists } from '../../src/checks/search.js';
import { accessTokenOf } from '../../src/steps/token-exchange.js';

export const permissionRemovalScenario: TestCase = {
  id: 'scenario/permission-removal',
  title: 'Permission removal: a removed read permission is gone on the next request with the same token, and only that one',
  rules: ['SEARCH-PERMISSION-REMOVAL'],
  needs: ['hook:users', 'hook:api-tokens', 'hook:businesses', 'hook:access'],
  async run(t) {
    const chain = await t.tokens.own();
    const [first, second] = await Promise.all(sampleBusinesses(t.parts.runId, t.fc.seed, 2).map((b) => t.hook.createBusiness(chain.tenant, b)));
    await t.hook.setAccess(chain.tenant, first!, chain.email, 'read');
    await t.hook.setAccess(chain.tenant, second!, chain.email, 'read');

    // One personal access token for the whole scenario.
    const access = await accessTokenOf(chain);
    const search = (token: string) => searchPages(t, t.target.baseUrl, token);
    const start = await search(access);
    if (!lists(start, { id: first! }) || !lists(start, { id: second! })) {
      throw new Error(
        `the two readable businesses are not both listed at the start (${describeResponse(start.first)}): ` +
          'removal cannot be observed (see SEARCH-ONLY-READABLE)',
      );
    }

    // Remove the first permission: gone on the very next request, the second stays.
    await t.hook.setAccess(chain.tenant, first!, chain.email, 'none');
    const afterFirst = await search(access);
    expectNotListed(
      t,
      'SEARCH-PERMISSION-REMOVAL',
      'first permission removed: that business is gone on the next request (same access token)',
      afterFirst,
      { id: first! },
      { soft: true },
    );
    expectListed(
      t,
      'SEARCH-PERMISSION-REMOVAL',
      'first permission removed: the other readable business is still listed',
      afterFirst,
      { id: second! },
      { soft: true },
    );

    // A partner-minted token for the same user (guarded: the partner key is optional here).
    let partnerToken: string | undefined;
    if (t.target.partner) {
      const minted = await t.partner.mint(chain.email);
      if (isSuccess(minted.res) && minted.access) partnerToken = minted.access.value;
      else t.observe('SEARCH-PERMISSION-REMOVAL', `the partner key could not mint for the hook's user (${minted.res.status}): partner tokens not tried`);
      if (partnerToken)
        expectListed(
          t,
          'SEARCH-PERMISSION-REMOVAL',
          'partner-minted token: the remaining readable business is listed',
          await search(partnerToken),
          { id: second! },
          { soft: true },
        );
    }

    // Remove the second permission: gone for both tokens on their next request.
    await t.hook.setAccess(chain.tenant, second!, chain.email, 'none');
    expectNotListed(
      t,
      'SEARCH-PERMISSION-REMOVAL',
      'second permission removed: gone on the next request (personal token)',
      await search(access),
      { id: second! },
      { soft: true },
    );
    if (partnerToken)
      expectNotListed(
        t,
        'SEARCH-PERMISSION-REMOVAL',
        'second permission removed: gone on the next request (partner-minted token)',
        await search(partnerToken),
        { id: second! },
        { soft: true },
      );

    // Granting again: the spec says permissions apply on every request; reported, not judged here.
    await t.hook.setAccess(chain.tenant, first!, chain.email, 'read');
    t.observe(
      'SEARCH-PERMISSION-REMOVAL',
      `after read access was granted again, the next request ${lists(await search(access), { id: first! }) ? 'lists the business again' : 'does not list it'}`,
    );
  },
};
