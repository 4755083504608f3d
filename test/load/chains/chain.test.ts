/** Token chains (src/load/chains/chain.ts): one connection per chain, and bounded parallel setup that keeps order. */
import { describe, expect, it } from 'vitest';
import { ChainConversation, chainAt, LoadChain, mapLimit } from '../../../src/load/chains/chain.js';

describe('chainAt', () => {
  it('gives connection i its own chain', () => {
    expect(chainAt(['a', 'b'], 1)).toBe('b');
  });

  it('a connection without a chain of its own is an error, never a shared chain', () => {
    expect(() => chainAt(['a', 'b'], 2)).toThrow('connection 3 has no chain of its own (2 chains)');
  });
});

describe('mapLimit', () => {
  it('keeps the order of the items and never runs more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const out = await mapLimit([5, 1, 4, 2, 3], 2, async (n, i) => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, n));
      running--;
      return `${i}:${n}`;
    });
    expect(out).toEqual(['0:5', '1:1', '2:4', '3:2', '4:3']);
    expect(most).toBe(2);
  });

  it('no items, no calls', async () => {
    expect(await mapLimit([], 4, async () => 1)).toEqual([]);
  });
});

describe('ChainConversation', () => {
  it("reads its label, rotations and end from its chain, so a chain's state has one home", () => {
    class Talk extends ChainConversation {}
    const chain = new LoadChain('chain 1', 'secret', undefined);
    const talk = new Talk(chain);
    chain.rotations = 3;
    chain.ended = true;
    expect([talk.label, talk.rotations, talk.ended]).toEqual(['chain 1', 3, true]);
  });
});
