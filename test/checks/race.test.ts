import { describe, expect, it } from 'vitest';
import {
  aliveAtMost,
  boundsOf,
  countBased,
  describePolicy,
  exchangedAtMost,
  type ExchangesSeen,
  policyOf,
  presentedMustBeRefused,
  presentedRefusedAfter,
} from '../../src/checks/race.js';
import { table } from './table.js';

const seen = (exchanged: number, refused: number, alive: number, sent = 8, returned = exchanged): ExchangesSeen => ({
  sent,
  exchanged,
  returned,
  refused,
  alive,
});

describe('the policy one exchange at a time shows (src/checks/race.ts)', () => {
  it.each([
    ['refused, the chain goes on (Max Reuse 0)', seen(1, 7, 1), { kind: 'refused' }],
    ['refused, and the chain ended (reuse detection)', seen(1, 7, 0), { kind: 'ends-chain' }],
    ['accepted once more (Max Reuse 1)', seen(2, 6, 2), { kind: 'limited', reuses: 1 }],
    ['accepted once more, then the chain ended', seen(2, 6, 0), { kind: 'limited', reuses: 1 }],
    ['accepted every time, only the newest token lives (one-step grace)', seen(8, 0, 1), { kind: 'replaces' }],
    ['accepted every time, every token lives', seen(8, 0, 8), { kind: 'unlimited' }],
    ['no token at the first exchange', seen(0, 1, 0, 8), { unknown: 'the first exchange of a fresh token returned no token' }],
    ['a 5xx among the answers', seen(1, 6, 1), { unknown: '1 answer of 8 neither returned a token nor refused with invalid_grant' }],
  ] as const)('%s', (_name, probe, policy) => {
    expect(policyOf(probe)).toEqual(policy);
  });

  it('says each policy in words', () => {
    expect(describePolicy({ kind: 'limited', reuses: 1 })).toBe('a rotated-out token is accepted 1 more time, then refused');
    expect(describePolicy({ kind: 'ends-chain' })).toMatch(/ends the whole chain/);
  });
});

describe('the bounds a policy puts on a batch', () => {
  it.each([
    ['refused: one token at most', { kind: 'refused' }, seen(3, 5, 3), { exchanged: 1, alive: 1 }],
    ['ends-chain, a reuse refused: no token left', { kind: 'ends-chain' }, seen(1, 7, 0), { exchanged: 1, alive: 0 }],
    ['ends-chain, no reuse refused (the others failed otherwise): one may live', { kind: 'ends-chain' }, seen(1, 0, 1), { exchanged: 1, alive: 1 }],
    ['limited: one and the reuses', { kind: 'limited', reuses: 1 }, seen(2, 6, 2), { exchanged: 2, alive: undefined }],
    ['replaces: one token alive at most', { kind: 'replaces' }, seen(8, 0, 1), { exchanged: undefined, alive: 1 }],
    ['unlimited: nothing', { kind: 'unlimited' }, seen(8, 0, 8), { exchanged: undefined, alive: undefined }],
  ] as const)('%s', (_name, policy, batch, bounds) => {
    expect(boundsOf(policy, batch)).toEqual(bounds);
  });
});

table('a batch held to its bounds (src/checks/race.ts)', [
  { name: 'one of eight returned a token, at most one may', found: () => exchangedAtMost(seen(1, 7, 1), 1), ok: true },
  {
    name: 'eight answers in flight together returned one same token (no fork), at most one may',
    found: () => exchangedAtMost(seen(8, 0, 1, 8, 1), 1),
    ok: true,
    actual: /^8 of 8 returned a token \(1 different token\)/,
  },
  {
    name: 'five of eight returned a token, at most one may',
    found: () => exchangedAtMost(seen(5, 3, 5), 1, 'still exchanging: token 1, 2 of 5 returned'),
    ok: false,
    actual: /^5 of 8 returned a token \(3 refused with invalid_grant\), 5 of the tokens returned still exchanged afterwards; still exchanging: token 1, 2/,
  },
  { name: 'one token alive of eight returned, at most one may', found: () => aliveAtMost(seen(8, 0, 1), 1), ok: true },
  { name: 'eight alive, at most one may (a fork)', found: () => aliveAtMost(seen(8, 0, 8), 1), ok: false },
  { name: 'one alive where the chain must have ended', found: () => aliveAtMost(seen(1, 7, 1), 0), ok: false },
]);

it('a finding on a batch carries the count it holds to a bound, for the reproduce script', () => {
  expect(exchangedAtMost(seen(2, 6, 2), 1).counted).toEqual({ bound: 1, of: 'returned' });
  expect(aliveAtMost(seen(8, 0, 2), 1).counted).toEqual({ bound: 1, of: 'alive' });
});

describe('the presented token tried again after a batch (a server that coalesces overlap but leaves it live)', () => {
  it.each([
    ['refused: it must be refused', { kind: 'refused' }, seen(2, 0, 1, 2, 1), true],
    ['ends-chain: it must be refused', { kind: 'ends-chain' }, seen(1, 1, 0, 2), true],
    ['limited, its reuses spent by the batch: it must be refused', { kind: 'limited', reuses: 1 }, seen(2, 0, 2, 2), true],
    ['limited, answers coalesced into one token: reuses not spent, not tried', { kind: 'limited', reuses: 1 }, seen(2, 0, 1, 2, 1), false],
    ['replaces: a reuse is allowed, not tried', { kind: 'replaces' }, seen(8, 0, 1), false],
    ['unlimited: not tried', { kind: 'unlimited' }, seen(8, 0, 8), false],
  ] as const)('%s', (_name, policy, batch, must) => {
    expect(presentedMustBeRefused(policy, batch)).toBe(must);
  });

  it('same new token to every overlapping exchange, presented token still exchanging: fails', () => {
    expect(presentedRefusedAfter(seen(8, 0, 1, 8, 1), true).ok).toBe(false);
    expect(presentedRefusedAfter(seen(8, 0, 1, 8, 1), false).ok).toBe(true);
  });
});

describe('a limited policy confirmed count-based by a second probe whose reuses come after a pause', () => {
  it('same reuses after the pause: count-based, judged', () => {
    expect(countBased({ kind: 'limited', reuses: 1 }, 1)).toBe(true);
  });
  it('a time window read as "accepted N times": fewer reuses after the pause, not count-based (observe only)', () => {
    expect(countBased({ kind: 'limited', reuses: 3 }, 0)).toBe(false);
  });
  it('other policies need no second probe', () => {
    expect(countBased({ kind: 'refused' }, -1)).toBe(true);
  });
});
