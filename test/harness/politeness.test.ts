/** Retry-After as tack reads it (RFC 9110 §10.2.3): whole seconds or an HTTP date; anything else is no wait it can honour. */
import { describe, expect, it } from 'vitest';
import { retryAfterMs } from '../../src/harness/politeness.js';

describe('retryAfterMs', () => {
  it.each([
    ['0', 0],
    ['7', 7_000],
    [' 2 ', 2_000],
    ['soon', undefined],
    ['-1', undefined],
    ['1.5', undefined],
  ])('%j → %j', (value, ms) => {
    expect(retryAfterMs(value, 0)).toBe(ms);
  });

  it('an HTTP date in the past is 0', () => {
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:00 GMT', Date.now())).toBe(0);
  });
});
