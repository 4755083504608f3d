/**
 * The token exchange (spec §2, §4.2, §5): an active API token, form-encoded with the configured
 * client_id and no client secret (IdentityClient never sends one), answers 200 with access_token,
 * expires_in 300, token_type Bearer and a refresh_token, as JSON; and (RFC 6749 §5.1) with
 * Cache-Control: no-store.
 *
 * Two exchanges are judged: the first token, and its replacement. In hookless mode the chain is
 * the token file's, and every rotation is stored before it is used (TokenChain).
 */
import { describe, type TestContext } from '../../src/harness/context.js';
import type { Exchanged } from '../../src/harness/clients/identity.js';
import type { TestCase } from '../../src/harness/types.js';

const RULE = 'SIGNIN-EXCHANGE';

export const exchange: TestCase = {
  id: 'sign-in/exchange',
  title: 'An active API token exchanges for a 300-second Bearer access token and a new refresh token',
  rules: ['SIGNIN-EXCHANGE', 'SIGNIN-NO-STORE'],
  needs: ['api-token'],
  async run(t) {
    const chain = await t.tokens.chain();
    for (const which of ['first exchange', 'exchange of the returned refresh_token']) {
      const result = await chain.exchange();
      t.expectStatus(RULE, `${which} without a client secret: status`, result.res, 200);
      judgeBody(t, which, result);
      const cacheControl = result.res.headers['cache-control'] ?? '';
      const noStore = cacheControl.split(',').some((d) => d.trim().toLowerCase() === 'no-store');
      t.soft('SIGNIN-NO-STORE', `${which}: Cache-Control`, noStore, 'Cache-Control containing no-store', cacheControl === '' ? 'no Cache-Control header' : `Cache-Control: ${cacheControl}`);
      if (!result.refreshToken) break; // nothing to exchange next (already reported)
    }
  },
};

function judgeBody(t: TestContext, which: string, result: Exchanged): void {
  const res = result.res;
  const type = (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  t.soft(RULE, `${which}: content type`, type === 'application/json' || type.endsWith('+json'), 'application/json', type || '(none)');
  const body = res.json;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    t.check(RULE, `${which}: body`, false, 'a JSON object', describe(res));
    return;
  }
  const b = body as Record<string, unknown>;
  t.soft(RULE, `${which}: access_token`, isNonEmptyString(b.access_token), 'a non-empty string', kindOf(b.access_token));
  // The spec: "integer seconds; 300". A numeric string is not an integer.
  t.soft(RULE, `${which}: expires_in`, b.expires_in === 300, 'the number 300', shown(b.expires_in));
  // RFC 6749 §5.1: the token type value is case-insensitive.
  t.soft(RULE, `${which}: token_type`, typeof b.token_type === 'string' && b.token_type.toLowerCase() === 'bearer', 'Bearer (any letter case)', shown(b.token_type));
  t.soft(RULE, `${which}: refresh_token`, isNonEmptyString(b.refresh_token), 'a non-empty string', kindOf(b.refresh_token));
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

/** What a token member holds, without its value. */
function kindOf(value: unknown): string {
  if (value === undefined) return 'missing';
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a non-empty string';
  return `a ${value === null ? 'null' : typeof value}`;
}

/** A non-secret member, shown with its JSON type so "300" and 300 differ. */
function shown(value: unknown): string {
  if (value === undefined) return 'missing';
  return `${JSON.stringify(value)} (${value === null ? 'null' : typeof value})`;
}
