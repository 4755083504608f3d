/**
 * Never-issued tokens (spec §3, §4.2; RFC 6749 §5.2): a token the server never issued is not
 * exchanged (a 4xx without access_token: a 5xx is a failure, not a refusal), and is refused with
 * 400 invalid_grant (MUST: the exchange is an RFC 6749 refresh, and §5.2 answers an invalid refresh
 * token with invalid_grant).
 *
 * The empty token is only in the first property: an empty refresh_token may fairly be answered
 * 400 invalid_request. Near copies of a real token are added where tack owns one (the hook's, or
 * one generated through the token page); the token file's token is never sent altered.
 */
import fc from 'fast-check';
import { CheckFailed, type TestContext } from '../../src/runner/test-context.js';
import type { TestCase } from '../../src/runner/test-case.js';
import { invalidGrant, notExchanged } from '../../src/checks/oauth.js';
import { garbageTokens, nearCopies, type Garbage } from './garbage-tokens.js';

export const garbage: TestCase = {
  id: 'sign-in/garbage-tokens',
  title: 'A token the sign-in server never issued is not exchanged',
  rules: ['SIGNIN-GARBAGE-REJECTED', 'SIGNIN-GARBAGE-INVALID-GRANT'],
  needs: [],
  async run(t) {
    const tokens = garbageTokens(t.target.clientId);
    const withEmpty = fc.oneof({ weight: 1, arbitrary: fc.constant<Garbage>({ kind: 'an empty token', value: '' }) }, { weight: 6, arbitrary: tokens });
    // Both properties run whatever the first one found; the first failure ends the test after them.
    const failed = await allSettled([
      () =>
        t.property('SIGNIN-GARBAGE-REJECTED', 'a never-issued token is not exchanged', withEmpty, async (g) => {
          await expectNotExchanged(t, g);
        }),
      () =>
        t.property('SIGNIN-GARBAGE-INVALID-GRANT', 'a never-issued token is refused with 400 invalid_grant', tokens, async (g) => {
          const result = await t.identity.exchange(g.value);
          t.check('SIGNIN-GARBAGE-INVALID-GRANT', g.kind, invalidGrant(result.res));
        }),
    ]);
    if (t.tokens.canOwn) {
      const chain = await t.tokens.own();
      for (const g of nearCopies(chain.current)) {
        const result = await expectNotExchanged(t, g);
        t.soft('SIGNIN-GARBAGE-INVALID-GRANT', g.kind, invalidGrant(result.res));
      }
    }
    if (failed) throw failed;
  },
};

/** Runs each step; a failed check (already recorded) does not stop the next. Returns the first. */
async function allSettled(steps: readonly (() => Promise<unknown>)[]): Promise<CheckFailed | undefined> {
  let first: CheckFailed | undefined;
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      if (!(error instanceof CheckFailed)) throw error;
      first ??= error;
    }
  }
  return first;
}

async function expectNotExchanged(t: TestContext, g: Garbage) {
  const result = await t.identity.exchange(g.value);
  t.soft('SIGNIN-GARBAGE-REJECTED', g.kind, notExchanged(result.res));
  return result;
}
