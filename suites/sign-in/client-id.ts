/**
 * The client id (spec §2, §4.2: client_id is required and is payroll-portal, or TACK_CLIENT_ID): an
 * exchange under another client id, or none, issues no token (a 4xx without access_token; RFC 6749
 * answers invalid_client or invalid_grant, the spec does not say which). Only on tokens tack owns
 * (the hook's, or generated through the token page): a server that wrongly accepted would rotate
 * the token.
 *
 * Each refusal is judged on a token that exchanged under the right client id just before, so it was
 * about the client id, not a dead token. Whether a token presented under a foreign client id stays
 * usable the spec does not say: a server may invalidate it (as a precaution against a stolen
 * token). tack observes that, and takes a fresh token for the next attempt; it does not fail it.
 */
import type { TestContext } from '../../src/runner/test-context.js';
import type { TestCase } from '../../src/runner/test-case.js';
import type { TokenChain } from '../../src/harness/tokens.js';
import { describeResponse } from '../../src/checks/describe-response.js';
import { isExchanged, notExchanged } from '../../src/checks/oauth.js';
import { expectExchange } from '../../src/steps/token-exchange.js';

export const clientId: TestCase = {
  id: 'sign-in/client-id',
  title: 'An exchange under another client id, or none, issues no token',
  rules: ['SIGNIN-CLIENT-ID'],
  needs: ['own-token'],
  async run(t) {
    let chain = await t.tokens.own();
    await expectExchange(t, 'SIGNIN-CLIENT-ID', `the token under client_id ${t.target.clientId}`, chain);
    const attempts: [string, Record<string, string>][] = [
      [`an exchange with client_id ${t.target.clientId}-other`, { client_id: `${t.target.clientId}-other` }],
      ['an exchange without client_id', {}],
    ];
    for (const [title, client] of attempts) {
      const res = await form(t, { grant_type: 'refresh_token', ...client, refresh_token: chain.current });
      t.soft('SIGNIN-CLIENT-ID', title, notExchanged(res));
      chain = await stillUsable(t, chain, title);
    }
  },
};

function form(t: TestContext, fields: Record<string, string>) {
  return t.identity.raw(
    'POST',
    t.identity.tokenUrl,
    { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    new URLSearchParams(fields).toString(),
  );
}

/**
 * The same token under the right client id again: it exchanges (the chain goes on), or the server
 * invalidated it after the foreign attempt (observed; a fresh token, proven live, goes on).
 */
async function stillUsable(t: TestContext, chain: TokenChain, after: string): Promise<TokenChain> {
  const again = await chain.exchange();
  if (isExchanged(again)) return chain;
  t.observe(
    'SIGNIN-CLIENT-ID',
    `after ${after}, the token no longer exchanged under ${t.target.clientId} (${describeResponse(again.res)}): the server invalidated it`,
  );
  const fresh = await t.tokens.own();
  await expectExchange(t, 'SIGNIN-CLIENT-ID', `a fresh token under client_id ${t.target.clientId}`, fresh);
  return fresh;
}
