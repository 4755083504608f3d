/**
 * A caller who is not a member of the host's tenant is refused with 403 (spec §7). The caller is a
 * fresh user of tenant A only (hook), so its membership is known; a hookless user's is not.
 */
import type { TestCase } from '../../src/harness/types.js';
import { accessTokenOf } from './support.js';

export const searchNonMember: TestCase = {
  id: 'api/search-non-member',
  title: "A user of tenant A only is refused with 403 at tenant B's host",
  rules: ['SEARCH-NON-MEMBER'],
  needs: ['other-tenant', 'hook:users', 'hook:api-tokens'],
  async run(t) {
    const chain = await t.tokens.own();
    const access = await accessTokenOf(chain);
    const res = await t.api.search(t.target.otherBaseUrl!, access);
    t.expectStatus('SEARCH-NON-MEMBER', "search at tenant B's host by a user of tenant A only", res, 403);
  },
};
