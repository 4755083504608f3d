/**
 * Counted requests at their edges (src/checks/sequence.ts): each case pins down what a weaker check
 * would pass, found by mutation testing (`npm run mutation`).
 */
import { describe, expect, it } from 'vitest';
import type { ObservedRequest } from '../../src/checks/observed-request.js';
import { atMost, exactly, sameValue } from '../../src/checks/sequence.js';

const request = (seq: number): ObservedRequest => ({
  seq,
  run: 1,
  role: 'tenant',
  method: 'GET',
  target: '/api/businesses/search',
  headers: {},
  body: undefined,
  at: seq,
  response: { status: 200, headers: {}, body: '', at: seq },
});
const n = (count: number) => Array.from({ length: count }, (_, i) => request(i + 1));

describe('counted requests at their edges (src/checks/sequence.ts)', () => {
  it('exactly as many as allowed is at most that many; none is at most none', () => {
    expect(atMost(n(2), 2, 'search').ok).toBe(true);
    expect(atMost(n(0), 0, 'search').ok).toBe(true);
    expect(atMost(n(1), 0, 'search').ok).toBe(false);
    expect(atMost(n(1), 0, 'search').expected).toBe('no search');
    expect(atMost(n(1), 2, 'search').expected).toBe('at most 2 searchs');
  });

  it('exactly n is neither one fewer nor one more', () => {
    expect([1, 2, 3].map((c) => exactly(n(c), 2, 'search').ok)).toEqual([false, true, false]);
  });

  it('the requests counted are listed, the first four only', () => {
    expect(exactly(n(0), 1, 'search').actual).toBe('no search');
    const listed = [1, 2, 3, 4].map((i) => `#${i} GET /api/businesses/search → 200`).join(', ');
    expect(exactly(n(4), 1, 'search').actual).toBe(`4 searchs: ${listed}`);
    expect(exactly(n(5), 1, 'search').actual).toMatch(/#4 GET \/api\/businesses\/search → 200, …$/);
  });

  it('the same value is shown as expected; none is nothing; another is said otherwise', () => {
    expect(sameValue('a', 'a', 'the stored token', 'another token')).toEqual({ ok: true, expected: 'the stored token', actual: 'the stored token' });
    expect(sameValue(undefined, 'a', 'the stored token', 'another token').ok).toBe(false);
  });
});
