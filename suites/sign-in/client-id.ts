/**
 * The client id (spec §2, §4.2: client_id is required and is payroll-portal, or TACK_CLIENT_ID): an
 * exchange under another client id, or none, issues no token (a 4xx without access_token; RFC 6749
 * answers invalid_client or invalid_grant, the spec does not say which). Only on tokens tack owns
 * (the hook's, or generated through the token page): a server that wrongly accepted would rotate
 * the token. The same token then still exchanges
 * under the right client id, so the refusals were about the client id, not the token.
 */
import type { TestCase } from '../../src/runner/test-case.js';
import { notExchanged } from '../../src/checks/oauth.js';
import { expectExchange } from '../../src/steps/token-exchange.js';

export const clientId: TestCase = {
  id: 'sign-in/client-id',
  title: 'An exchange under another client id, or none, issues no token',
  rules: ['SIGNIN-CLIENT-ID'],
  needs: ['own-token'],
  async run(t) {
    const chain = await t.tokens.own();
    const form = (fields: Record<string, string>) =>
      t.identity.raw(
        'POST',
        t.identity.tokenUrl,
        { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        new URLSearchParams(fields).toString(),
      );
    const wrong = await form({ grant_type: 'refresh_token', client_id: `${t.target.clientId}-other`, refresh_token: chain.current });
    t.soft('SIGNIN-CLIENT-ID', `an exchange with client_id ${t.target.clientId}-other`, notExchanged(wrong));
    const none = await form({ grant_type: 'refresh_token', refresh_token: chain.current });
    t.soft('SIGNIN-CLIENT-ID', 'an exchange without client_id', notExchanged(none));
    await expectExchange(t, 'SIGNIN-CLIENT-ID', `the same token under client_id ${t.target.clientId}`, chain);
  },
};
