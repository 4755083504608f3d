/**
 * Rotation (spec §2, §3, §5): each exchange returns a new refresh_token, and that one exchanges in
 * turn, for a chain of rotations. Chains of different users rotate independently, also when
 * exchanged at the same moment.
 *
 * What happens to a rotated-out token the spec leaves open (Keycloak-style servers refuse it and
 * may end the whole chain; others accept it until it expires): observed, never failed, and only on
 * a chain tack owns (the hook's fresh users, or tokens tack generated through the token page). With
 * the token file alone, only its chain is rotated, one exchange at a time, each rotation stored
 * before it is used.
 */
import type { TestContext } from '../../src/runner/test-context.js';
import { describeResponse } from '../../src/checks/describe-response.js';
import type { TestCase } from '../../src/runner/test-case.js';
import { exchanged, isExchanged, isInvalidGrant, rotated } from '../../src/checks/oauth.js';
import type { TestPart } from '../../src/runner/needs.js';

const CHAIN_LENGTH = 5;
const CONCURRENT_CHAINS = 4;
/** Through the token page each token costs a pass in the browser: two chains show the same. */
const CONCURRENT_PAGE_CHAINS = 2;

/** The one token of the file is not tack's to fork or to reuse after rotation. */
const CONCURRENT: TestPart = { rule: 'SIGNIN-ROTATION', title: 'several chains exchanged at the same moment rotate independently', needs: ['own-token'] };

export const rotation: TestCase = {
  id: 'sign-in/rotation',
  title: 'Every exchange returns a new refresh token, and the chain of rotations holds',
  rules: ['SIGNIN-ROTATION'],
  needs: ['api-token'],
  parts: [CONCURRENT],
  async run(t) {
    const chain = await t.tokens.chain();
    for (let i = 1; i <= CHAIN_LENGTH; i++) {
      const sent = chain.current;
      const result = await chain.exchange();
      t.check('SIGNIN-ROTATION', `rotation ${i} of ${CHAIN_LENGTH}: the stored token exchanges`, exchanged(result));
      t.soft('SIGNIN-ROTATION', `rotation ${i} of ${CHAIN_LENGTH}: a new refresh_token`, rotated(sent, result));
    }
    if (!t.can(CONCURRENT)) return;
    await concurrentChains(t);
    await observeReuse(t);
  },
};

/** Several chains (of several users with the hook; of the web user through the page) exchanged at the same moment, twice: each keeps its own rotation. */
async function concurrentChains(t: TestContext): Promise<void> {
  const count = t.tokens.fromHook ? CONCURRENT_CHAINS : CONCURRENT_PAGE_CHAINS;
  const chains = await Promise.all(Array.from({ length: count }, () => t.tokens.own()));
  const whose = new Set(chains.map((c) => c.email)).size > 1 ? "users' chains" : 'chains of one user';
  for (const round of [1, 2]) {
    const before = chains.map((c) => c.current);
    const results = await Promise.all(chains.map((c) => c.exchange()));
    results.forEach((result, i) => {
      const what = `${count} ${whose} exchanged at once, round ${round}, chain ${i + 1}`;
      t.check('SIGNIN-ROTATION', `${what}: exchanged`, exchanged(result));
      t.check('SIGNIN-ROTATION', `${what}: a new refresh_token`, rotated(before[i]!, result));
    });
  }
}

/** Reuse of a rotated-out token, then the chain's current token: both outcomes are conformant. */
async function observeReuse(t: TestContext): Promise<void> {
  const chain = await t.tokens.own();
  const sent = chain.current;
  t.check('SIGNIN-ROTATION', 'rotation before reusing the rotated-out token', rotated(sent, await chain.exchange()));
  const reuse = await t.identity.exchange(sent);
  const reuseText = isExchanged(reuse)
    ? 'still accepted (the server lets a rotated-out token exchange until it expires)'
    : isInvalidGrant(reuse.res)
      ? 'rejected with invalid_grant'
      : `refused with ${describeResponse(reuse.res)}`;
  t.observe('SIGNIN-ROTATION', `rotated-out token: ${reuseText}`);
  const next = await chain.exchange();
  t.observe(
    'SIGNIN-ROTATION',
    isExchanged(next)
      ? "after that reuse, the chain's current token still exchanges"
      : `after that reuse, the chain's current token is refused (${describeResponse(next.res)}): the server ended the whole chain, Keycloak-style`,
  );
}
