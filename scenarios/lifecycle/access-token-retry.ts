/**
 * Access-token expiry and the client's remedy (spec §3, §5 step 4, §7): the access token works
 * until 300 s - tolerance; at 300 s + tolerance the API answers 401; the client exchanges its
 * stored API token again and retries once, which succeeds. "Works" means the search lists what the
 * token's user reads (src/harness/readers.ts); where tack knows no such user (need `reader-token`),
 * this scenario does not run, and doctor foresees as much (api/access-token-lifetime says what is
 * missing). Should the reader still be missing at run time, the runner marks SIGNIN-EXCHANGE, which
 * the scenario then never reached, as partly checked.
 *
 * In hookless mode the chain is the token file's, whose rotations are stored before use; moving the
 * clock 300 s harms no token.
 */
import type { TestCase } from '../../src/runner/test-case.js';
import { expectUserData } from '../../src/steps/listing.js';
import { searchPages } from '../../src/steps/paging.js';
import { status } from '../../src/checks/response.js';
import { expectExchange } from '../../src/steps/token-exchange.js';
import { accessTolerance, ACCESS_TOKEN_S } from '../../src/spec.js';
import { formatDuration } from '../../src/text/duration.js';

export const accessTokenRetry: TestCase = {
  id: 'scenario/access-token-retry',
  title: 'Access token expiry: 401 after 300 s, exchange again, the retry succeeds',
  rules: ['ACCESS-TOKEN-LIFETIME', 'SIGNIN-EXCHANGE'],
  needs: ['reader-token', 'hook:clock'],
  async run(t) {
    const tol = accessTolerance(t.target);
    const reader = await t.tokens.reader();
    if (!reader) {
      t.observe('ACCESS-TOKEN-LIFETIME', 'scenario/access-token-retry not run: tack knows no user who reads a business here');
      return;
    }
    const { chain, reads } = reader;
    const works = async (title: string, token: string | undefined) =>
      expectUserData(t, 'ACCESS-TOKEN-LIFETIME', title, await searchPages(t, t.target.baseUrl, token), reads);

    const first = await expectExchange(t, 'SIGNIN-EXCHANGE', 'exchange the stored token', chain);
    await works('search with the access token just issued', first.accessToken);
    await t.advance(ACCESS_TOKEN_S - tol);
    await works(`search ${formatDuration(ACCESS_TOKEN_S - tol)} after the exchange`, first.accessToken);
    await t.advance(2 * tol);
    t.check(
      'ACCESS-TOKEN-LIFETIME',
      `search ${formatDuration(ACCESS_TOKEN_S + tol)} after the exchange`,
      status(await t.api.search(t.target.baseUrl, first.accessToken), 401),
    );

    // The remedy: exchange again with the stored token, retry once.
    const again = await expectExchange(t, 'SIGNIN-EXCHANGE', 'exchange again after the 401', chain);
    await works('the retry with the new access token', again.accessToken);
  },
};
