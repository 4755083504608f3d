/**
 * The token exchange (spec §2, §4.2, §5): an active API token, form-encoded with the configured
 * client_id and no client secret (IdentityClient never sends one), answers 200 with access_token,
 * expires_in 300, token_type Bearer and a refresh_token, as JSON; and (RFC 6749 §5.1) with
 * Cache-Control: no-store.
 *
 * Two exchanges are judged: the first token, and its replacement. In hookless mode the chain is
 * the token file's, and every rotation is stored before it is used (TokenChain).
 */
import type { Exchanged } from '../../src/harness/clients/identity.js';
import type { TestContext } from '../../src/runner/test-context.js';
import type { TestCase } from '../../src/runner/test-case.js';
import { jsonMediaType, jsonObjectBody, status } from '../../src/checks/response.js';
import { bearerTokenType, memberIs, noStore, nonEmptyString } from '../../src/checks/oauth.js';
import { ACCESS_TOKEN_S } from '../../src/spec.js';

export const exchange: TestCase = {
  id: 'sign-in/exchange',
  title: 'An active API token exchanges for a 300-second Bearer access token and a new refresh token',
  rules: ['SIGNIN-EXCHANGE', 'SIGNIN-NO-STORE'],
  needs: ['api-token'],
  async run(t) {
    const chain = await t.tokens.chain();
    for (const which of ['first exchange', 'exchange of the returned refresh_token']) {
      const result = await chain.exchange();
      t.check('SIGNIN-EXCHANGE', `${which} without a client secret: status`, status(result.res, 200));
      judgeBody(t, which, result);
      t.soft('SIGNIN-NO-STORE', `${which}: Cache-Control`, noStore(result.res));
      if (!result.refreshToken) break; // nothing to exchange next (already reported)
    }
  },
};

function judgeBody(t: TestContext, which: string, result: Exchanged): void {
  t.soft('SIGNIN-EXCHANGE', `${which}: content type`, jsonMediaType(result.res));
  t.check('SIGNIN-EXCHANGE', `${which}: body`, jsonObjectBody(result.res));
  const body = result.res.json as Record<string, unknown>;
  t.soft('SIGNIN-EXCHANGE', `${which}: access_token`, nonEmptyString(body, 'access_token'));
  // The spec: "integer seconds; 300". A numeric string is not an integer.
  t.soft('SIGNIN-EXCHANGE', `${which}: expires_in`, memberIs(body, 'expires_in', ACCESS_TOKEN_S));
  t.soft('SIGNIN-EXCHANGE', `${which}: token_type`, bearerTokenType(body));
  t.soft('SIGNIN-EXCHANGE', `${which}: refresh_token`, nonEmptyString(body, 'refresh_token'));
}
