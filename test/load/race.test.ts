/**
 * The race probe's policy (src/load/race.ts): what one-at-a-time exchanges of one token show, and
 * under which a fork fails the run.
 */
import { describe, expect, it } from 'vitest';
import { forkFails, rotationPolicyOf, probingChains } from '../../src/load/race.js';

describe('rotationPolicyOf', () => {
  it.each([
    [{ sent: 4, exchanged: 1, refused: 3, alive: 1 }, 'refused'],
    [{ sent: 4, exchanged: 1, refused: 3, alive: 0 }, 'ends-chain'],
    [{ sent: 4, exchanged: 4, refused: 0, alive: 1 }, 'replaces'],
    [{ sent: 4, exchanged: 2, refused: 2, alive: 2 }, 'limited'],
    [{ sent: 4, exchanged: 4, refused: 0, alive: 4 }, 'unlimited'],
  ] as const)('%o is %s', (seen, policy) => {
    expect(rotationPolicyOf(seen)).toBe(policy);
  });

  it('shows none when the first exchange returned no token, or an answer was neither a token nor invalid_grant', () => {
    expect(rotationPolicyOf({ sent: 1, exchanged: 0, refused: 1, alive: 0 })).toHaveProperty('unknown');
    expect(rotationPolicyOf({ sent: 4, exchanged: 1, refused: 2, alive: 1 })).toHaveProperty('unknown');
  });
});

describe('forkFails', () => {
  it('fails a fork where one exchange at a time leaves at most one usable token, observes it elsewhere', () => {
    expect(['refused', 'ends-chain', 'replaces'].every((p) => forkFails(p as never))).toBe(true);
    expect(forkFails('limited')).toBe(false);
    expect(forkFails('unlimited')).toBe(false);
  });
});

describe('probingChains', () => {
  it('takes the share of the chains, at least 3 (or all there are) when the share is above 0, none at 0', () => {
    expect(probingChains(10, 0.1)).toBe(3);
    expect(probingChains(2, 0.1)).toBe(2);
    expect(probingChains(100, 0.1)).toBe(10);
    expect(probingChains(3, 1)).toBe(3);
    expect(probingChains(10, 0)).toBe(0);
  });
});
