/**
 * The 90-day absolute limit (spec §3, §8): a token exchanged every 20 days still exchanges at
 * 90 d - tol after generation, and is refused with 400 invalid_grant at 90 d + tol although it was
 * used 2 tol before. A limit counted from the last rotation (sliding with use) accepts it.
 */
import type { TestCase } from '../../src/runner/test-case.js';
import { invalidGrant } from '../../src/checks/oauth.js';
import { ABSOLUTE_LIMIT_S, clockTolerance, DAY_S, IDLE_LIMIT_S } from '../../src/spec.js';
import { expectExchange } from '../../src/steps/token-exchange.js';
import { formatDuration } from '../../src/text/duration.js';

const EVERY_S = 20 * DAY_S;

export const absoluteExpiry: TestCase = {
  id: 'sign-in/absolute-expiry',
  title: 'A token is refused 90 days after generation, however often it was used',
  rules: ['SIGNIN-ABSOLUTE-EXPIRY', 'SIGNIN-IDLE-RESET'],
  needs: ['hook:clock', 'hook:users', 'hook:api-tokens'],
  async run(t) {
    const tol = clockTolerance(t.target);
    const chain = await t.tokens.own();
    let age = 0;
    while (age + EVERY_S < ABSOLUTE_LIMIT_S - tol) {
      await t.advance(EVERY_S);
      age += EVERY_S;
      // Past 30 days the token lives only because each exchange restarted the unused limit.
      await expectExchange(
        t,
        age > IDLE_LIMIT_S ? 'SIGNIN-IDLE-RESET' : 'SIGNIN-ABSOLUTE-EXPIRY',
        `used every ${formatDuration(EVERY_S)}: exchange at ${formatDuration(age)}`,
        chain,
      );
    }
    await t.advance(ABSOLUTE_LIMIT_S - tol - age);
    await expectExchange(
      t,
      'SIGNIN-ABSOLUTE-EXPIRY',
      `${formatDuration(ABSOLUTE_LIMIT_S - tol)} after generation, used ${formatDuration(ABSOLUTE_LIMIT_S - tol - age)} before`,
      chain,
    );
    await t.advance(2 * tol);
    const expired = await chain.exchange();
    t.check(
      'SIGNIN-ABSOLUTE-EXPIRY',
      `${formatDuration(ABSOLUTE_LIMIT_S + tol)} after generation, used ${formatDuration(2 * tol)} before`,
      invalidGrant(expired.res),
    );
  },
};
