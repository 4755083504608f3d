/** `--shard i/n` (src/load/shard.ts): shards split connections and rate evenly and never share a chain. */
import { describe, expect, it } from 'vitest';
import { isTackError } from '../../src/harness/errors.js';
import { ownsLine, parseShard, type Shard, shardLabel, shareOf } from '../../src/load/shard.js';

describe('parseShard', () => {
  it.each([
    ['1/1', { index: 1, count: 1 }],
    ['2/4', { index: 2, count: 4 }],
    [' 3 / 3 ', { index: 3, count: 3 }],
  ])('%j is shard %o', (text, shard) => {
    expect(parseShard(text)).toEqual(shard);
  });

  it.each(['0/2', '3/2', '1/0', '2', 'a/b', '-1/2'])('refuses %j as a usage error', (text) => {
    let error: unknown;
    try {
      parseShard(text);
    } catch (e) {
      error = e;
    }
    expect(isTackError(error) && error.code).toBe('TACK_ERR_USAGE');
  });
});

describe('shareOf', () => {
  it('without a shard the whole is this runner’s', () => {
    expect(shareOf(10, undefined)).toBe(10);
  });

  it.each([
    [10, 4, [3, 3, 2, 2]],
    [3, 4, [1, 1, 1, 0]],
    [8, 4, [2, 2, 2, 2]],
  ])('%d split over %d shards: the first total %% n take one more, the shares add up', (total, count, shares) => {
    const got = Array.from({ length: count }, (_, i) => shareOf(total, { index: i + 1, count }));
    expect(got).toEqual(shares);
    expect(got.reduce((a, b) => a + b, 0)).toBe(total);
  });
});

describe('ownsLine', () => {
  it('every token pool line belongs to exactly one shard: shard i takes lines i, i+n, ...', () => {
    const count = 3;
    const shards: Shard[] = [1, 2, 3].map((index) => ({ index, count }));
    for (let line = 0; line < 12; line++) {
      expect(shards.filter((s) => ownsLine(line, s)).map((s) => s.index)).toEqual([(line % count) + 1]);
    }
    expect(ownsLine(7, undefined)).toBe(true);
  });
});

describe('shardLabel', () => {
  it('is i/n, or null without a shard', () => {
    expect(shardLabel({ index: 2, count: 4 })).toBe('2/4');
    expect(shardLabel(undefined)).toBeNull();
  });
});
