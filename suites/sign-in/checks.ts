/**
 * Small checks the sign-in tests and scenarios share. Each knows only what it expects; the caller
 * says which rule it serves.
 */
import { describe, type TestContext } from '../../src/harness/context.js';
import type { Exchanged } from '../../src/harness/clients/identity.js';
import type { HttpResponse } from '../../src/harness/http.js';
import type { TokenChain } from '../../src/harness/tokens.js';
import type { RuleId } from '../../src/rules/catalog.js';

export { ABSOLUTE_LIMIT_S, ACCESS_TOKEN_S, DAY_S, fmt, IDLE_LIMIT_S } from './model/model.js';

export function isInvalidGrant(res: HttpResponse): boolean {
  return res.status === 400 && errorOf(res) === 'invalid_grant';
}

export function errorOf(res: HttpResponse): string | undefined {
  const error = (res.json as { error?: unknown } | undefined)?.error;
  return typeof error === 'string' ? error : undefined;
}

/** 200 with a non-empty access_token and refresh_token. */
export function exchangedOk(result: Exchanged): boolean {
  return result.res.status === 200 && !!result.accessToken && !!result.refreshToken;
}

export function expectInvalidGrant(t: TestContext, rule: RuleId, title: string, res: HttpResponse, options: { soft?: boolean } = {}): boolean {
  const ok = isInvalidGrant(res);
  if (options.soft) return t.soft(rule, title, ok, '400 invalid_grant', describe(res));
  t.check(rule, title, ok, '400 invalid_grant', describe(res));
  return ok;
}

/**
 * The chain's current token exchanges: 200 with both tokens (judged under `rule`), and a
 * refresh_token different from the one sent (always judged under SIGNIN-ROTATION, without stopping).
 */
export async function expectExchange(t: TestContext, rule: RuleId, title: string, chain: TokenChain): Promise<Exchanged> {
  const before = chain.current;
  const result = await chain.exchange();
  t.check(rule, `${title}: exchanged`, exchangedOk(result), '200 with access_token and refresh_token', describe(result.res));
  // Soft: a chain that keeps its token still exchanges, so the caller's own rule still gets its verdict.
  t.soft('SIGNIN-ROTATION', `${title}: a new refresh_token`, result.refreshToken !== before, 'a refresh_token different from the one sent', 'the same refresh_token');
  return result;
}

/** The API took the access token: anything but 401. A user without business access may get 200 (no items) or 403. */
export function isAcceptedByApi(res: HttpResponse): boolean {
  return res.status === 200 || res.status === 403;
}

export function expectAccepted(t: TestContext, rule: RuleId, title: string, res: HttpResponse): void {
  t.check(rule, title, isAcceptedByApi(res), '200 (or 403 for a user without access): the token is accepted, not 401', describe(res));
}
