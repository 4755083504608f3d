/**
 * Revoke (spec §3, §4.2): revoking an active API token answers 200 with an empty body, and from
 * then on the token is refused with 400 invalid_grant. Checked on a token that was exchanged (the
 * chain's current one) and on a freshly generated one. Only on tokens tack owns (hook).
 */
import { describe, type TestContext } from '../../src/harness/context.js';
import type { TokenChain } from '../../src/harness/tokens.js';
import type { TestCase } from '../../src/harness/types.js';
import { expectExchange, expectInvalidGrant } from './checks.js';

const RULE = 'SIGNIN-REVOKE';

export const revoke: TestCase = {
  id: 'sign-in/revoke',
  title: 'A revoked API token is refused with invalid_grant',
  rules: ['SIGNIN-REVOKE'],
  needs: ['hook:users', 'hook:api-tokens'],
  async run(t) {
    const used = await t.tokens.own();
    await expectExchange(t, 'SIGNIN-EXCHANGE', 'setup: the new token exchanges before it is revoked', used);
    await revokeAndExchange(t, used, 'an exchanged token');
    await revokeAndExchange(t, await t.tokens.own(), 'a token never exchanged');
  },
};

async function revokeAndExchange(t: TestContext, chain: TokenChain, what: string): Promise<void> {
  const token = chain.current;
  const res = await t.identity.revoke(token);
  t.expectStatus(RULE, `revoke ${what}: status`, res, 200, { soft: true });
  const length = res.text.trim().length;
  t.soft(RULE, `revoke ${what}: body`, length === 0, 'an empty body', length === 0 ? 'empty' : `${describe(res)}, a body of ${length} characters`);
  const after = await t.identity.exchange(token);
  expectInvalidGrant(t, RULE, `exchange of ${what} after revoke`, after.res);
}
