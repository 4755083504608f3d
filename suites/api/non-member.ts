import type { TestCase } from '../../src/runner/test-case.js';
import { status } from '../../src/checks/response.js';
import { accessTokenOf } from '../../src/steps/token-exchange.js';
import { expectUserData } from '../../src/steps/listing.js';
import { searchPages } from '../../src/steps/paging.js';
import type { TestPart } from '../../src/runner/needs.js';

const HOME_WORKS: TestPart = { rule: 'SEARCH-NON-MEMBER', title: "the same token at tenant A's host lists what the user reads", needs: ['reader-token'] };

export const searchNonMember: TestCase = {
  id: 'api/search-non-member',
  title: "A user of tenant A only is refused with 403 at tenant B's host",
  rules: ['SEARCH-NON-MEMBER'],
  needs: ['other-tenant', 'hook:users', 'hook:api-tokens'],
  parts: [HOME_WORKS],
  async run(t) {
    const reader = await t.tokens.reader();
    const chain = reader?.chain ?? (await t.tokens.own());
    const access = await accessTokenOf(chain);
    if (t.can(HOME_WORKS))
      expectUserData(t, 'SEARCH-NON-MEMBER', HOME_WORKS.title, await searchPages(t, t.target.baseUrl, access), reader!.reads, { soft: true });
    t.check('SEARCH-NON-MEMBER', "search at tenant B's host by a user of tenant A only", status(await t.api.search(t.target.otherBaseUrl!, access), 403));
  },
};
