/** expectExchange judges the exchange under the caller's rule; accessTokenOf is a precondition that stops the test, not a verdict. */
import { describe, expect, it } from 'vitest';
import type { Exchanged } from '../../src/harness/clients/identity.js';
import type { TokenChain } from '../../src/harness/tokens.js';
import { accessTokenOf, expectExchange } from '../../src/steps/token-exchange.js';
import { response, stubContext } from './stub-context.js';

function chain(result: Exchanged): TokenChain {
  return { exchange: () => Promise.resolve(result) } as unknown as TokenChain;
}
const GOOD: Exchanged = { res: response(200, { access_token: 'a', refresh_token: 'r' }), accessToken: 'a', refreshToken: 'r', error: undefined };
const REFUSED: Exchanged = { res: response(400, { error: 'invalid_grant' }), accessToken: undefined, refreshToken: undefined, error: 'invalid_grant' };

describe('expectExchange', () => {
  it('records a passed check under the given rule and returns the exchange', async () => {
    const { t, records } = stubContext();
    await expect(expectExchange(t, 'SIGNIN-EXCHANGE', 'first use', chain(GOOD))).resolves.toBe(GOOD);
    expect(records).toEqual([{ how: 'check', rule: 'SIGNIN-EXCHANGE', title: 'first use: exchanged', ok: true }]);
  });

  it('fails the rule when the answer lacks the refresh token', async () => {
    const { t, records } = stubContext();
    const noRefresh = { ...GOOD, refreshToken: undefined };
    await expect(expectExchange(t, 'SIGNIN-ROTATION', 'rotate', chain(noRefresh))).rejects.toThrow('check failed');
    expect(records[0]).toMatchObject({ rule: 'SIGNIN-ROTATION', ok: false });
  });
});

describe('accessTokenOf', () => {
  it('returns the access token of a good exchange', async () => {
    await expect(accessTokenOf(chain(GOOD))).resolves.toBe('a');
  });

  it('throws a precondition error naming the answer when there is no access token', async () => {
    await expect(accessTokenOf(chain(REFUSED))).rejects.toThrow(/precondition.*400/);
  });
});
