/** `--compare` (src/load/results/comparison.ts): which earlier result can be compared (the tolerance's grammar: test/cli/options.test.ts). */
import { describe, expect, it } from 'vitest';
import { baselineMismatch } from '../../../src/load/results/comparison.js';
import type { LoadResult } from '../../../src/load/types.js';

describe('baselineMismatch', () => {
  const of = (profile: string) => ({ profile }) as LoadResult;
  it('a baseline of the same profile can be compared', () => {
    expect(baselineMismatch('exchange', of('exchange'))).toBeUndefined();
  });
  it('a baseline of another profile cannot, and says which it is', () => {
    expect(baselineMismatch('exchange', of('search'))).toBe('the baseline is a search run, this is exchange');
  });
});
