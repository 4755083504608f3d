/**
 * `--shard i/n`: this runner is shard i (1-based) of n running at the same time against one
 * target. Connections and the fixed rate are split as evenly as whole numbers allow (the first
 * `total % n` shards take one more), and a token pool by line: shard i takes lines i, i+n, i+2n...
 * so shards never share a chain.
 */
import { TackError } from '../harness/errors.js';

export interface Shard {
  /** 1-based. */
  readonly index: number;
  readonly count: number;
}

export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count) {
    throw new TackError('TACK_ERR_USAGE', `--shard takes i/n with 1 <= i <= n, e.g. 2/4 for the second of four runners (got "${text}")`);
  }
  return { index, count };
}

/** This shard's share of a whole number. */
export function shareOf(total: number, shard: Shard | undefined): number {
  if (!shard) return total;
  return Math.floor(total / shard.count) + (shard.index <= total % shard.count ? 1 : 0);
}

/** Whether line `i` (0-based) of a token pool belongs to this shard. */
export function ownsLine(i: number, shard: Shard | undefined): boolean {
  return !shard || i % shard.count === shard.index - 1;
}

export function shardLabel(shard: Shard | undefined): string | null {
  return shard ? `${shard.index}/${shard.count}` : null;
}
