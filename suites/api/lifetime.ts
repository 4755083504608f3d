import type { TestCase } from '../../src/runner/test-case.js';
import { bearerChallenge } from '../../src/checks/challenge.js';
import { status } from '../../src/checks/response.js';
import { accessTolerance, ACCESS_TOKEN_S } from '../../src/spec.js';
import { accessTokenOf } from '../../src/steps/token-exchange.js';
import { expectUserData } from '../../src/steps/listing.js';
import { searchPages } from '../../src/steps/paging.js';
import type { TestPart } from '../../src/runner/needs.js';

const LISTS_READS: TestPart = {
  rule: 'ACCESS-TOKEN-LIFETIME',
  title: 'until 300 s have passed, the access token lists what its user reads',
  needs: ['reader-token'],
};

export const accessTokenLifetime: TestCase = {
  id: 'api/access-token-lifetime',
  title: 'An access token works for 300 seconds and is refused with 401 after',
  rules: ['ACCESS-TOKEN-LIFETIME', 'ACCESS-WWW-AUTHENTICATE'],
  needs: ['api-token', 'hook:clock'],
  parts: [LISTS_READS],
  async run(t) {
    const tol = accessTolerance(t.target);
    const reader = await t.tokens.reader();
    const chain = reader?.chain ?? (await t.tokens.chain());
    const access = await accessTokenOf(chain);
    const works = async (title: string) => {
      if (!t.can(LISTS_READS)) return;
      expectUserData(t, 'ACCESS-TOKEN-LIFETIME', title, await searchPages(t, t.target.baseUrl, access), reader!.reads, { soft: true });
    };
    await works('a fresh access token lists what its user reads');
    await t.advance(ACCESS_TOKEN_S - tol);
    await works(`${ACCESS_TOKEN_S - tol} s after the exchange it still does`);
    await t.advance(2 * tol);
    const after = await t.api.search(t.target.baseUrl, access);
    t.check('ACCESS-TOKEN-LIFETIME', `refused ${ACCESS_TOKEN_S + tol} s after the exchange`, status(after, 401));
    t.soft('ACCESS-WWW-AUTHENTICATE', 'search with an expired access token: WWW-Authenticate', bearerChallenge(after));
  },
};
