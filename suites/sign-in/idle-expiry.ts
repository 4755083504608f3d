/**
 * The 30-day unused limit (spec §3, §8), with the clock moved through the hook and the day-scale
 * tolerance `tol` (TACK_CLOCK_TOLERANCE_S, at least 1 s) on each side of the limit:
 * - a token unused since generation for 30 d + tol is refused with 400 invalid_grant;
 * - a token unused for 30 d - tol still exchanges, and so does its replacement 30 d - tol later
 *   (60 d - 2 tol after generation: the exchange restarted the 30 days);
 * - 30 d + tol after that last exchange it is refused (90 d - tol after generation, so the 90-day
 *   limit has not struck yet: only the unused limit explains the refusal).
 * A 31-day limit accepts the tokens at 30 d + tol; a limit that does not restart refuses at 60 d.
 */
import type { TestCase } from '../../src/runner/test-case.js';
import { invalidGrant } from '../../src/checks/oauth.js';
import { clockTolerance, IDLE_LIMIT_S } from '../../src/spec.js';
import { expectExchange } from '../../src/steps/token-exchange.js';
import { formatDuration } from '../../src/text/duration.js';

export const idleExpiry: TestCase = {
  id: 'sign-in/idle-expiry',
  title: 'A token unused for 30 days is refused; each exchange restarts the 30 days',
  rules: ['SIGNIN-IDLE-EXPIRY', 'SIGNIN-IDLE-RESET'],
  needs: ['hook:clock', 'hook:users', 'hook:api-tokens'],
  async run(t) {
    const tol = clockTolerance(t.target);
    const early = IDLE_LIMIT_S - tol;
    const late = IDLE_LIMIT_S + tol;

    const unused = await t.tokens.own();
    await t.advance(late);
    t.check('SIGNIN-IDLE-EXPIRY', `a token never exchanged, ${formatDuration(late)} after generation`, invalidGrant((await unused.exchange()).res));

    const chain = await t.tokens.own();
    await t.advance(early);
    await expectExchange(t, 'SIGNIN-IDLE-EXPIRY', `a token never exchanged, ${formatDuration(early)} after generation`, chain);
    await t.advance(early);
    await expectExchange(t, 'SIGNIN-IDLE-RESET', `${formatDuration(early)} after the last exchange, ${formatDuration(2 * early)} after generation`, chain);
    await t.advance(late);
    const expired = await chain.exchange();
    t.check(
      'SIGNIN-IDLE-EXPIRY',
      `${formatDuration(late)} after the last exchange, ${formatDuration(2 * early + late)} after generation`,
      invalidGrant(expired.res),
    );
  },
};
