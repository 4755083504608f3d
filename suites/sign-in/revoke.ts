/**
 * Revoke (spec §3, §4.2): revoking an active API token answers 200 with an empty body, and from
 * then on the token is refused with 400 invalid_grant. Checked on a token that was exchanged (the
 * chain's current one) and on a freshly generated one. Only on tokens tack owns: the hook's, or
 * tokens it generated through the token page (never the token file's).
 */
import type { TestContext } from '../../src/runner/test-context.js';
import type { TokenChain } from '../../src/harness/tokens.js';
import type { TestCase } from '../../src/runner/test-case.js';
import { emptyBody, status } from '../../src/checks/response.js';
import { invalidGrant } from '../../src/checks/oauth.js';
import { expectExchange } from '../../src/steps/token-exchange.js';

export const revoke: TestCase = {
  id: 'sign-in/revoke',
  title: 'A revoked API token is refused with invalid_grant',
  rules: ['SIGNIN-REVOKE'],
  needs: ['own-token'],
  async run(t) {
    const used = await t.tokens.own();
    // That the token worked before is part of the evidence: the refusal after is the revocation's doing.
    await expectExchange(t, 'SIGNIN-REVOKE', 'before revoking, the token exchanges', used);
    await revokeAndExchange(t, used, 'an exchanged token');
    await revokeAndExchange(t, await t.tokens.own(), 'a token never exchanged');
  },
};

async function revokeAndExchange(t: TestContext, chain: TokenChain, what: string): Promise<void> {
  const token = chain.current;
  const res = await t.identity.revoke(token);
  t.soft('SIGNIN-REVOKE', `revoke ${what}: status`, status(res, 200));
  t.soft('SIGNIN-REVOKE', `revoke ${what}: body`, emptyBody(res));
  const after = await t.identity.exchange(token);
  t.check('SIGNIN-REVOKE', `exchange of ${what} after revoke`, invalidGrant(after.res));
}
