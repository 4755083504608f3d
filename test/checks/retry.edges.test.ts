/**
 * A repeated call at its edges (src/checks/retry.ts): each case pins down what a weaker check would
 * pass, found by mutation testing (`npm run mutation`).
 */
import { describe, expect, it } from 'vitest';
import type { ObservedRequest } from '../../src/checks/observed-request.js';
import { carriedIn, repeatedWith } from '../../src/checks/retry.js';

const call = (seq: number, target: string, headers: Record<string, string> = {}, parts: Partial<ObservedRequest> = {}): ObservedRequest => ({
  seq,
  run: 1,
  role: 'tenant',
  method: 'GET',
  target,
  headers,
  body: undefined,
  at: seq,
  response: { status: 200, headers: {}, body: '', at: seq },
  ...parts,
});
const tokens = new Set(['at-old', 'at/new']);
const refused = call(1, '/api/businesses/search?q=a', { authorization: 'Bearer at-old' });

describe('a repeated call at its edges (src/checks/retry.ts)', () => {
  it('a retry with another method is another call, even with the new token', () => {
    const retry = call(3, '/api/businesses/search?q=a', { authorization: 'Bearer at/new' }, { method: 'POST' });
    expect(repeatedWith(refused, retry, 'at/new', 'the new token', tokens).ok).toBe(false);
  });

  it('with no token to look for, a retry carrying none does not count as carrying it', () => {
    expect(repeatedWith(refused, call(3, '/api/businesses/search?q=a'), undefined, 'the new token', tokens).ok).toBe(false);
  });

  it('a token in the path is blanked out before comparing, raw or URL-encoded', () => {
    const original = call(1, '/api/tokens/at-old/businesses', { authorization: 'Bearer at-old' });
    const retry = call(3, `/api/tokens/${encodeURIComponent('at/new')}/businesses`, { authorization: 'Bearer at/new' });
    expect(repeatedWith(original, retry, 'at/new', 'the new token', tokens).ok).toBe(true);
  });

  it('a repetition without the new token says what it carried instead', () => {
    const retry = (headers: Record<string, string>) => call(3, '/api/businesses/search?q=a', headers);
    const instead = (headers: Record<string, string>) => repeatedWith(refused, retry(headers), 'at/new', 'the new token', tokens).actual;
    expect(instead({})).toMatch(/^the same call without the new token: it carried no Bearer token \(/);
    expect(instead({ authorization: 'Bearer at-old' })).toMatch(/^the same call without the new token: it carried the refused access token again \(/);
    expect(instead({ authorization: 'Bearer at-other' })).toMatch(/^the same call without the new token: it carried another token \(/);
  });

  it('says where the token travels: Bearer, another header, the URL URL-encoded, the body', () => {
    expect(carriedIn(call(3, '/x', { authorization: 'Bearer at/new' }), 'at/new')).toBe('as Bearer');
    expect(carriedIn(call(3, '/x', { 'x-token': 'at/new' }), 'at/new')).toBe('in the x-token header');
    expect(carriedIn(call(3, `/x?t=${encodeURIComponent('at/new')}`), 'at/new')).toBe('in the URL');
    expect(carriedIn(call(3, '/x', {}, { body: '{"token":"at/new"}' }), 'at/new')).toBe('in the body');
    expect(carriedIn(call(3, '/x', { 'x-other': 'at-old' }), 'at/new')).toBeUndefined();
  });
});
