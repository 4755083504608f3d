/**
 * A caller who is not a member of the host's tenant is refused with 403 (spec §7). The caller is a
 * fresh user of tenant A only (hook), so its membership is known (a hookless user's is not); that
 * its token is good is shown at A's host, with data the user reads there.
 */
import { NO_READER } from '../../src/harness/readers.js';
import type { TestCase } from '../../src/harness/types.js';
import { status } from '../checks/http.js';
import { accessTokenOf } from '../sign-in/support.js';
import { expectUserData } from './listing.js';
import { searchPages } from './paging.js';

export const searchNonMember: TestCase = {
  id: 'api/search-non-member',
  title: "A user of tenant A only is refused with 403 at tenant B's host",
  rules: ['SEARCH-NON-MEMBER'],
  needs: ['other-tenant', 'hook:users', 'hook:api-tokens'],
  async run(t) {
    const reader = await t.tokens.reader();
    const chain = reader?.chain ?? (await t.tokens.own());
    const access = await accessTokenOf(chain);
    const home = "the same token at tenant A's host lists what the user reads";
    if (reader) expectUserData(t, 'SEARCH-NON-MEMBER', home, await searchPages(t, t.target.baseUrl, access), reader.reads, { soft: true });
    else t.unverified('SEARCH-NON-MEMBER', home, NO_READER);
    t.check('SEARCH-NON-MEMBER', "search at tenant B's host by a user of tenant A only", status(await t.api.search(t.target.otherBaseUrl!, access), 403));
  },
};
