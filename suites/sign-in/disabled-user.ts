/**
 * Disabled user (spec §3, §4.2): once the token's user is disabled, the token is unusable: exchange
 * answers 400 invalid_grant. The token's user is one tack created through the hook.
 */
import type { TestCase } from '../../src/runner/test-case.js';
import { invalidGrant } from '../../src/checks/oauth.js';
import { expectExchange } from '../../src/steps/token-exchange.js';

export const disabledUser: TestCase = {
  id: 'sign-in/disabled-user',
  title: "A disabled user's API token is refused with invalid_grant",
  rules: ['SIGNIN-DISABLED-USER'],
  needs: ['hook:users', 'hook:api-tokens', 'hook:disable-user'],
  async run(t) {
    const chain = await t.tokens.own();
    await expectExchange(t, 'SIGNIN-DISABLED-USER', 'while its user is enabled, the token exchanges', chain);
    await t.hook.disable(chain.email);
    t.check('SIGNIN-DISABLED-USER', 'exchange after the user was disabled', invalidGrant((await chain.exchange()).res));
  },
};
