/**
 * Steps the sign-in tests and scenarios share: an exchange judged under the caller's rule, and an
 * access token that must exist before a test can go on (a precondition, not a verdict).
 */
import type { Exchanged } from '../harness/clients/identity.js';
import type { TestContext } from '../runner/test-context.js';
import { describeResponse } from '../checks/describe-response.js';
import type { TokenChain } from '../harness/tokens.js';
import type { RuleId } from '../rules/catalog.js';
import { exchanged } from '../checks/oauth.js';

/** Exchanges the chain's current token; `rule` judges that it exchanged (200 with both tokens). */
export async function expectExchange(t: TestContext, rule: RuleId, title: string, chain: TokenChain): Promise<Exchanged> {
  const result = await chain.exchange();
  t.check(rule, `${title}: exchanged`, exchanged(result));
  return result;
}

/** Exchanges a chain's current token and insists on an access token (precondition). */
export async function accessTokenOf(chain: TokenChain): Promise<string> {
  const result = await chain.exchange();
  if (!result.accessToken) throw new Error(`could not exchange the API token at the sign-in server (precondition): ${describeResponse(result.res)}`);
  return result.accessToken;
}
