/**
 * Idle expiry, as a script meets it (spec §3, §8): a script runs every 29 days, exchanging its
 * stored token and calling the API; the exchanges keep the token alive past 30 days since
 * generation. Then the script stops: 30 days + tolerance after its last run the token is refused
 * with 400 invalid_grant (still well inside 90 days of generation), and a new token works.
 */
import type { TestCase } from '../../src/runner/test-case.js';
import { invalidGrant } from '../../src/checks/oauth.js';
import { expectExchange } from '../../src/steps/token-exchange.js';
import { clockTolerance, DAY_S, IDLE_LIMIT_S } from '../../src/spec.js';
import { formatDuration } from '../../src/text/duration.js';

const EVERY_S = 29 * DAY_S;

export const idleExpiryScenario: TestCase = {
  id: 'scenario/idle-expiry',
  title: 'Idle expiry: a script that runs every 29 days keeps its token; 30 days after it stops, the token is refused',
  rules: ['SIGNIN-IDLE-RESET', 'SIGNIN-IDLE-EXPIRY'],
  needs: ['hook:clock', 'hook:users', 'hook:api-tokens'],
  async run(t) {
    const tol = clockTolerance(t.target);
    const chain = await t.tokens.own();
    for (const run of [1, 2]) {
      await t.advance(EVERY_S);
      const age = run * EVERY_S;
      const rule = age >= IDLE_LIMIT_S + tol ? 'SIGNIN-IDLE-RESET' : 'SIGNIN-IDLE-EXPIRY';
      await expectExchange(t, rule, `script run ${run}, ${formatDuration(age)} after generation`, chain);
    }
    await t.advance(IDLE_LIMIT_S + tol);
    const refused = await chain.exchange();
    t.check(
      'SIGNIN-IDLE-EXPIRY',
      `the script runs again ${formatDuration(IDLE_LIMIT_S + tol)} after its last run (${formatDuration(2 * EVERY_S + IDLE_LIMIT_S + tol)} after generation)`,
      invalidGrant(refused.res),
    );

    const fresh = await t.tokens.own({ email: chain.email });
    await expectExchange(t, 'SIGNIN-IDLE-EXPIRY', 'a new token for the same user exchanges (the refusal was the old token’s idleness)', fresh);
  },
};
