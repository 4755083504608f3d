/**
 * Access-token expiry and the client's remedy (spec §3, §5 step 4, §7): the access token works
 * until 300 s - tolerance; at 300 s + tolerance the API answers 401; the client exchanges its
 * stored API token again and retries once, which succeeds. "Works" is any answer but 401: a user
 * who may read no business gets 200 with no items, or 403.
 *
 * Needs the hook clock and some API token: in hookless mode it is the token file's chain, whose
 * rotations are stored before use; moving the clock 300 s harms no token.
 */
import { describe } from '../src/harness/context.js';
import type { TestCase } from '../src/harness/types.js';
import { effectiveTolerance } from '../suites/sign-in/model/model.js';
import { ACCESS_TOKEN_S, expectAccepted, expectExchange, fmt } from '../suites/sign-in/checks.js';

export const accessTokenRetry: TestCase = {
  id: 'scenario/access-token-retry',
  title: 'Access token expiry: 401 after 300 s, exchange again, the retry succeeds',
  rules: ['ACCESS-TOKEN-LIFETIME', 'SIGNIN-EXCHANGE'],
  needs: ['api-token', 'hook:clock'],
  async run(t) {
    const tol = effectiveTolerance(t.target.toleranceS);
    const chain = await t.tokens.chain();
    const search = (token: string | undefined) => t.api.search(t.target.baseUrl, token);

    const first = await expectExchange(t, 'SIGNIN-EXCHANGE', 'exchange the stored token', chain);
    expectAccepted(t, 'ACCESS-TOKEN-LIFETIME', 'search with the access token just issued', await search(first.accessToken));
    await t.advance(ACCESS_TOKEN_S - tol);
    expectAccepted(t, 'ACCESS-TOKEN-LIFETIME', `search ${fmt(ACCESS_TOKEN_S - tol)} after the exchange`, await search(first.accessToken));
    await t.advance(2 * tol);
    const expired = await search(first.accessToken);
    t.check('ACCESS-TOKEN-LIFETIME', `search ${fmt(ACCESS_TOKEN_S + tol)} after the exchange`, expired.status === 401, '401', describe(expired));

    // The remedy: exchange again with the stored token, retry once.
    const again = await expectExchange(t, 'SIGNIN-EXCHANGE', 'exchange again after the 401', chain);
    expectAccepted(t, 'ACCESS-TOKEN-LIFETIME', 'the retry with the new access token', await search(again.accessToken));
  },
};
