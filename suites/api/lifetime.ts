/**
 * Access-token lifetime (spec §3, §8): valid 300 seconds, then refused with 401. Time is travelled
 * with the hook clock, never slept, and judged with the tolerance TACK_CLOCK_TOLERANCE_S: still
 * accepted at 300 − tolerance, refused at 300 + tolerance.
 */
import type { TestCase } from '../../src/harness/types.js';
import { checkChallenge } from './access-token.js';
import { accessTokenOf, acceptedBy } from './support.js';

const LIFETIME_S = 300;

export const accessTokenLifetime: TestCase = {
  id: 'api/access-token-lifetime',
  title: 'An access token works for 300 seconds and is refused with 401 after',
  rules: ['ACCESS-TOKEN-LIFETIME', 'ACCESS-WWW-AUTHENTICATE'],
  needs: ['api-token', 'hook:clock'],
  async run(t) {
    const tolerance = Math.min(t.target.toleranceS, LIFETIME_S - 1);
    const chain = await t.tokens.chain();
    const access = await accessTokenOf(chain);
    const fresh = await t.api.search(t.target.baseUrl, access);
    t.check('ACCESS-TOKEN-LIFETIME', 'a fresh access token is accepted', acceptedBy(t, 'ACCESS-TOKEN-LIFETIME', fresh, 'fresh token'), '200 (or 403: the user may read nothing)', String(fresh.status));

    await t.advance(LIFETIME_S - tolerance);
    const before = await t.api.search(t.target.baseUrl, access);
    t.soft('ACCESS-TOKEN-LIFETIME', `still accepted ${LIFETIME_S - tolerance} s after the exchange`, acceptedBy(t, 'ACCESS-TOKEN-LIFETIME', before, 'token near its end'), '200 (or 403: the user may read nothing)', String(before.status));

    await t.advance(2 * tolerance);
    const after = await t.api.search(t.target.baseUrl, access);
    t.expectStatus('ACCESS-TOKEN-LIFETIME', `refused ${LIFETIME_S + tolerance} s after the exchange`, after, 401);
    checkChallenge(t, after, 'search with an expired access token');
  },
};
