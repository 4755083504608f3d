/**
 * Personal API token lifecycle, as a script meets it (spec §3, §5): a token is generated, exchanged
 * for an access token that works at the API, rotated several times (each refresh_token stored over
 * the previous one), revoked (200, empty body), and from then on refused with 400 invalid_grant;
 * the remedy the spec gives, a new token, works again.
 */
import { describe } from '../src/harness/context.js';
import type { TestCase } from '../src/harness/types.js';
import { expectAccepted, expectExchange, expectInvalidGrant } from '../suites/sign-in/checks.js';

const ROTATIONS = 5;

export const personalTokenLifecycle: TestCase = {
  id: 'scenario/personal-token-lifecycle',
  title: 'Personal token lifecycle: generate, exchange, rotate, revoke, refused, generate again',
  rules: ['SIGNIN-EXCHANGE', 'ACCESS-TOKEN-LIFETIME', 'SIGNIN-ROTATION', 'SIGNIN-REVOKE'],
  needs: ['hook:users', 'hook:api-tokens'],
  async run(t) {
    const chain = await t.tokens.own();

    const first = await expectExchange(t, 'SIGNIN-EXCHANGE', 'exchange the new token', chain);
    expectAccepted(t, 'ACCESS-TOKEN-LIFETIME', 'search with the access token just issued', await t.api.search(t.target.baseUrl, first.accessToken));

    for (let i = 1; i <= ROTATIONS; i++) await expectExchange(t, 'SIGNIN-ROTATION', `rotation ${i} of ${ROTATIONS}, with the refresh_token stored last time`, chain);

    const revoked = chain.current;
    const res = await t.identity.revoke(revoked);
    t.expectStatus('SIGNIN-REVOKE', 'revoke the current token', res, 200, { soft: true });
    t.soft('SIGNIN-REVOKE', 'revoke answers with an empty body', res.text.trim() === '', 'an empty body', `${describe(res)}, ${res.text.trim().length} characters`);
    expectInvalidGrant(t, 'SIGNIN-REVOKE', 'exchange after revoke', (await chain.exchange()).res);
    expectInvalidGrant(t, 'SIGNIN-REVOKE', 'exchange after revoke, tried a second time', (await chain.exchange()).res);

    // Spec §7: invalid_grant means do not retry, generate a new token.
    const fresh = await t.tokens.own({ email: chain.email });
    await expectExchange(t, 'SIGNIN-EXCHANGE', 'a new token for the same user', fresh);
  },
};
