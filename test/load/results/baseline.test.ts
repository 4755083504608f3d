/** `--baseline` and `--tolerance` (src/load/results/baseline.ts): what a tolerance reads, and which baseline can be compared. */
import { describe, expect, it } from 'vitest';
import { baselineMismatch, parseTolerance } from '../../../src/load/results/baseline.js';
import type { LoadResult } from '../../../src/load/types.js';

describe('parseTolerance', () => {
  it.each([
    ['20', 20],
    ['20%', 20],
    [' 7.5 % ', 7.5],
    ['0', 0],
  ])('%j → %d percent', (text, pct) => {
    expect(parseTolerance(text)).toBe(pct);
  });

  it.each(['', '-5', 'twenty', '20%%', '5 percent'])('%j is no tolerance', (text) => {
    expect(parseTolerance(text)).toBeUndefined();
  });
});

describe('baselineMismatch', () => {
  const of = (profile: string) => ({ profile }) as LoadResult;
  it('a baseline of the same profile can be compared', () => {
    expect(baselineMismatch('exchange', of('exchange'))).toBeUndefined();
  });
  it('a baseline of another profile cannot, and says which it is', () => {
    expect(baselineMismatch('exchange', of('search'))).toBe('the baseline is a search run, this is exchange');
  });
});
