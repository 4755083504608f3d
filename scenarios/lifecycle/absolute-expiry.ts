/**
 * Absolute expiry, as a script meets it (spec §3, §8): a script exchanges its token every day. At
 * 90 days - tolerance after generation the token still exchanges; at 90 days + tolerance it is
 * refused with 400 invalid_grant although it was used a moment before: the 90 days are never
 * extended. A new token works.
 */
import { describeResponse } from '../../src/checks/describe-response.js';
import { finding } from '../../src/checks/finding.js';
import type { TestCase } from '../../src/runner/test-case.js';
import { isExchanged, invalidGrant } from '../../src/checks/oauth.js';
import { expectExchange } from '../../src/steps/token-exchange.js';
import { ABSOLUTE_LIMIT_S, clockTolerance, DAY_S } from '../../src/spec.js';
import { formatDuration } from '../../src/text/duration.js';

export const absoluteExpiryScenario: TestCase = {
  id: 'scenario/absolute-expiry',
  title: 'Absolute expiry: a token used every day is refused 90 days after generation',
  rules: ['SIGNIN-ABSOLUTE-EXPIRY', 'SIGNIN-IDLE-RESET'],
  needs: ['hook:clock', 'hook:users', 'hook:api-tokens'],
  async run(t) {
    const tol = clockTolerance(t.target);
    // Real time runs on top of the hook clock (test-hook.md), and ~180 calls take real seconds on a
    // remote target: that time is taken off the move to 90 d - tol, and added back to the next one.
    const started = performance.now();
    const chain = await t.tokens.own();
    let age = 0;
    let days = 0;
    let firstFailure: string | undefined;
    // Daily until a day before the limit: the last day is the 90-day rule's to judge, below.
    while (age + DAY_S <= ABSOLUTE_LIMIT_S - DAY_S - tol && firstFailure === undefined) {
      await t.advance(DAY_S);
      age += DAY_S;
      const result = await chain.exchange();
      if (isExchanged(result)) days += 1;
      else firstFailure = `day ${age / DAY_S}: ${describeResponse(result.res)}`;
    }
    // One verdict for the daily runs: each exchanged, or the first that did not.
    t.check(
      'SIGNIN-IDLE-RESET',
      'daily exchanges, each 1 d after the previous one',
      finding(firstFailure === undefined, 'each exchanges (200 with both tokens)', firstFailure ?? `${days} exchanged`),
    );
    const lag = Math.ceil((performance.now() - started) / 1000);
    await t.advance(ABSOLUTE_LIMIT_S - tol - age - lag);
    await expectExchange(t, 'SIGNIN-ABSOLUTE-EXPIRY', `${formatDuration(ABSOLUTE_LIMIT_S - tol)} after generation`, chain);
    await t.advance(2 * tol + lag);
    t.check(
      'SIGNIN-ABSOLUTE-EXPIRY',
      `${formatDuration(ABSOLUTE_LIMIT_S + tol)} after generation, used ${formatDuration(2 * tol + lag)} before`,
      invalidGrant((await chain.exchange()).res),
    );

    const fresh = await t.tokens.own({ email: chain.email });
    await expectExchange(t, 'SIGNIN-ABSOLUTE-EXPIRY', 'a new token for the same user exchanges (the refusal was the old token’s age)', fresh);
  },
};
