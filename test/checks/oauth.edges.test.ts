/**
 * Sign-in server answers at their edges (src/checks/oauth.ts): each case pins down what a weaker
 * check would pass, found by mutation testing (`npm run mutation`).
 */
import { describe, expect, it } from 'vitest';
import { accessTokenIssued, bearerTokenType, errorOf, exchanged, invalidGrant, memberIs, nonEmptyString, notExchanged } from '../../src/checks/oauth.js';
import type { Exchanged } from '../../src/harness/clients/identity.js';
import { answer } from './table.js';

const result = (status: number, accessToken?: string, refreshToken?: string): Exchanged => ({
  res: answer(status, { json: {} }),
  accessToken,
  refreshToken,
  error: undefined,
});

describe('sign-in server answers at their edges (src/checks/oauth.ts)', () => {
  it('an answer without a JSON body has no OAuth error, and a non-string error is none', () => {
    expect(invalidGrant(answer(400)).ok).toBe(false);
    expect(errorOf(answer(400, { json: { error: 5 } }))).toBeUndefined();
  });

  it('tokens in an answer that is not 200 are no exchange', () => {
    expect(exchanged(result(201, 'at', 'rt')).ok).toBe(false);
    expect(accessTokenIssued(result(400, 'at')).ok).toBe(false);
  });

  it('a refresh token without an access token is no exchange', () => {
    expect(exchanged(result(200, undefined, 'rt')).ok).toBe(false);
  });

  it('a refusal is a 4xx, 499 included; a redirect is none', () => {
    expect(notExchanged(answer(302)).ok).toBe(false);
    expect(notExchanged(answer(499)).ok).toBe(true);
    expect(notExchanged(answer(400)).ok).toBe(true);
  });

  it('a missing token_type is not Bearer', () => {
    expect(bearerTokenType({}).ok).toBe(false);
    expect(bearerTokenType({ token_type: 5 }).ok).toBe(false);
  });

  it('a null or missing member is shown by its kind', () => {
    expect(nonEmptyString({ t: null }, 't').actual).toBe('a null');
    expect(nonEmptyString({}, 't').actual).toBe('missing');
    expect(memberIs({}, 'expires_in', 300).actual).toBe('missing');
    expect(memberIs({ expires_in: null }, 'expires_in', 300).actual).toBe('null (null)');
  });
});
