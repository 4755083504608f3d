/** Unit tests of the injected clock, the bounded token store and the self-contained access tokens. */
import { describe, expect, it } from 'vitest';
import { AccessTokens } from '../../src/reference/access-token.js';
import { DAY, OffsetClock } from '../../src/reference/clock.js';
import { MacKey } from '../../src/reference/secrets.js';
import { MAX_BRANCHES, type ReusePolicy, TokenStore } from '../../src/reference/token-store.js';

function fixedClock(start = 1_700_000_000_000) {
  let real = start;
  const clock = new OffsetClock(() => real);
  return { clock, tick: (ms: number) => (real += ms) };
}

function store(clock: OffsetClock, maxEntries?: number, reuse?: ReusePolicy) {
  return new TokenStore({
    prefix: 'tpat',
    limits: { idleMs: 30 * DAY, absoluteMs: 90 * DAY },
    clock,
    mac: new MacKey(),
    ...(maxEntries === undefined ? {} : { maxEntries }),
    ...(reuse === undefined ? {} : { reuse }),
  });
}

const owner = { userId: 'u1', tenant: 'acme', clientId: null };

describe('clock: real time plus a forward-only offset', () => {
  it('adds the offset to real time, and real time keeps running', () => {
    const { clock, tick } = fixedClock(1000);
    clock.advance(60);
    expect(clock.now()).toBe(61_000);
    tick(500);
    expect(clock.now()).toBe(61_500);
    expect(clock.offsetMs).toBe(60_000);
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 1e300])('refuses advance(%s)', (n) => {
    const { clock } = fixedClock();
    expect(() => clock.advance(n)).toThrow(RangeError);
    expect(clock.offsetMs).toBe(0);
  });

  it('refuses a move that would overflow a Date', () => {
    const { clock } = fixedClock();
    expect(() => clock.advance(9_007_199_254_740)).toThrow(RangeError);
  });
});

describe('token store', () => {
  it('rotate keeps the chain; the old token lives only until its successor is used', () => {
    const { clock } = fixedClock();
    const tokens = store(clock);
    const first = tokens.issue(owner);
    const grant = tokens.find(first);
    const second = tokens.rotate(first) ?? '';
    expect(second).not.toBe('');
    expect(second).not.toBe(first);
    expect(tokens.find(second)?.chainId).toBe(grant?.chainId);
    // The answer carrying `second` may have been lost: `first` still works once more...
    expect(tokens.find(first)?.chainId).toBe(grant?.chainId);
    const third = tokens.rotate(second) ?? '';
    // ...but once its successor was used, it is unknown.
    expect(tokens.find(first)).toBeUndefined();
    expect(tokens.rotate(first)).toBeUndefined();
    expect(tokens.find(second)).toBeDefined();
    expect(tokens.size).toBe(1);
    expect(tokens.tokenCount).toBe(2);
    expect(third).not.toBe('');
  });

  it('presenting the predecessor again discards the unused successor', () => {
    const { clock } = fixedClock();
    const tokens = store(clock);
    const first = tokens.issue(owner);
    const lost = tokens.rotate(first) ?? '';
    const again = tokens.rotate(first) ?? '';
    expect(again).not.toBe('');
    expect(tokens.find(lost)).toBeUndefined();
    expect(tokens.find(again)).toBeDefined();
    expect(tokens.tokenCount).toBe(2);
  });

  it('refused: a rotated-out token is refused at once, the chain goes on (Max Reuse 0)', () => {
    const tokens = store(fixedClock().clock, undefined, 'refused');
    const first = tokens.issue(owner);
    const second = tokens.rotate(first) ?? '';
    expect(tokens.rotate(first)).toBeUndefined();
    expect(tokens.rotate(second)).toBeDefined();
  });

  it('once: the token just rotated out exchanges once more, and the token it replaced stays live beside the new one (Max Reuse 1)', () => {
    const tokens = store(fixedClock().clock, undefined, 'once');
    const first = tokens.issue(owner);
    const second = tokens.rotate(first) ?? '';
    const beside = tokens.rotate(first) ?? '';
    expect(beside).not.toBe('');
    expect(tokens.rotate(first)).toBeUndefined();
    expect(tokens.rotate(second)).toBeDefined();
    expect(tokens.rotate(beside)).toBeDefined();
  });

  it('once: a chain keeps at most MAX_BRANCHES tokens beside its line, dropping the oldest', () => {
    const tokens = store(fixedClock().clock, undefined, 'once');
    let current = tokens.issue(owner);
    for (let i = 0; i < MAX_BRANCHES + 3; i++) {
      const next = tokens.rotate(current) ?? '';
      current = tokens.rotate(current) ?? '';
      expect(next).not.toBe('');
    }
    expect(tokens.tokenCount).toBeLessThanOrEqual(MAX_BRANCHES + 2);
  });

  it('ends-chain: presenting the token just rotated out ends the whole chain (reuse detection)', () => {
    const tokens = store(fixedClock().clock, undefined, 'ends-chain');
    const first = tokens.issue(owner);
    const second = tokens.rotate(first) ?? '';
    expect(tokens.find(first)).toBeUndefined();
    expect(tokens.presentedAgain(first)).toBe(true);
    expect(tokens.find(second)).toBeUndefined();
    expect(tokens.presentedAgain(first)).toBe(false);
    expect(tokens.size).toBe(0);
  });

  it('rotateAsRead: a write that missed another rotation adds its token beside the current one (a fork); revoking ends every branch', () => {
    const tokens = store(fixedClock().clock);
    const first = tokens.issue(owner);
    const grant = tokens.find(first)!;
    const seen = { current: grant.current, previous: grant.previous };
    const a = tokens.rotateAsRead(first, grant, seen) ?? '';
    const b = tokens.rotateAsRead(first, grant, seen) ?? '';
    expect([tokens.find(a), tokens.find(b)].every((g) => g === grant)).toBe(true);
    const b2 = tokens.rotate(b) ?? '';
    expect(tokens.find(a)).toBeDefined();
    expect(tokens.revoke(b2)).toBe(true);
    expect([tokens.find(a), tokens.find(b2)]).toEqual([undefined, undefined]);
    // Unchanged since the read, it is a plain rotation.
    const other = tokens.issue(owner);
    const read = tokens.find(other)!;
    const next = tokens.rotateAsRead(other, read, { current: read.current, previous: read.previous }) ?? '';
    expect(read.current).toBe(next);
  });

  it('revoking any token of a chain ends the whole chain', () => {
    const { clock } = fixedClock();
    const tokens = store(clock);
    const first = tokens.issue(owner);
    const second = tokens.rotate(first) ?? '';
    expect(tokens.revoke(first)).toBe(true);
    expect(tokens.find(second)).toBeUndefined();
    expect(tokens.size).toBe(0);
    expect(tokens.tokenCount).toBe(0);
  });

  it('recognises only its own well-formed, correctly tagged tokens', () => {
    const { clock } = fixedClock();
    const tokens = store(clock);
    const token = tokens.issue(owner);
    expect(tokens.recognises(token)).toBe(true);
    const last = token.at(-1) === 'A' ? 'B' : 'A';
    for (const bad of [token.slice(0, -1) + last, `${token}x`, token.slice(1), 'garbage', '', token.replace('tpat_', 'tprt_')]) {
      expect(tokens.recognises(bad)).toBe(false);
    }
    expect(store(clock).recognises(token)).toBe(false); // another server's key
  });

  it('expires at 30 days unused and at 90 days from generation, whichever is first', () => {
    const { clock } = fixedClock();
    const tokens = store(clock);
    let token = tokens.issue(owner);
    clock.advance(30 * 86_400 - 1); // just before the unused limit: still exchanges
    token = tokens.rotate(token) ?? '';
    expect(token).not.toBe('');
    clock.advance(30 * 86_400); // exactly 30 days unused: expired
    expect(tokens.find(token)).toBeUndefined();

    token = tokens.issue(owner); // generated at G; used every 29 days it never idles out...
    for (let day = 29; day <= 87; day += 29) {
      clock.advance(29 * 86_400);
      token = tokens.rotate(token) ?? '';
      expect(token).not.toBe('');
    }
    clock.advance(3 * 86_400 - 1); // ...and at G + 90 days - 1 s it still works,
    expect(tokens.find(token)).toBeDefined();
    clock.advance(1); // but not at G + 90 days, however recently it was used.
    expect(tokens.find(token)).toBeUndefined();
    expect(tokens.size).toBe(0);
  });

  it('revoke deletes; unknown tokens are fine', () => {
    const { clock } = fixedClock();
    const tokens = store(clock);
    const token = tokens.issue(owner);
    expect(tokens.revoke(token)).toBe(true);
    expect(tokens.revoke(token)).toBe(false);
    expect(tokens.revoke('nonsense')).toBe(false);
    expect(tokens.find(token)).toBeUndefined();
  });

  it('sweep evicts expired tokens', () => {
    const { clock } = fixedClock();
    const tokens = store(clock);
    for (let i = 0; i < 10; i++) tokens.issue(owner);
    clock.advance(15 * 86_400);
    const fresh = tokens.issue(owner);
    clock.advance(15 * 86_400);
    expect(tokens.sweep()).toBe(10);
    expect(tokens.size).toBe(1);
    expect(tokens.find(fresh)).toBeDefined();
  });

  it('at its cap evicts the least recently used chain', () => {
    const { clock } = fixedClock();
    const tokens = store(clock, 3);
    const a = tokens.issue(owner);
    const b = tokens.issue(owner);
    const c = tokens.issue(owner);
    const a2 = tokens.rotate(a) ?? '';
    tokens.issue(owner);
    expect(tokens.size).toBe(3);
    expect(tokens.find(b)).toBeUndefined();
    expect(tokens.find(c)).toBeDefined();
    expect(tokens.find(a2)).toBeDefined();
  });

  it('does not grow with the number of rotations (200 000 rotations on 5 chains)', () => {
    const { clock, tick } = fixedClock();
    const tokens = store(clock);
    const chains = Array.from({ length: 5 }, () => tokens.issue(owner));
    for (let i = 0; i < 200_000; i++) {
      const slot = i % chains.length;
      const next = tokens.rotate(chains[slot] ?? '');
      if (next === undefined) throw new Error(`rotation ${i} failed`);
      chains[slot] = next;
      if (i % 1000 === 0) tick(1);
      if (i % 50_000 === 0) expect(tokens.size).toBe(5);
    }
    expect(tokens.size).toBe(5);
    expect(tokens.tokenCount).toBe(10);
  });
});

describe('access tokens', () => {
  it('verify while fresh, expire at 300 s by the clock', () => {
    const { clock } = fixedClock();
    const tokens = new AccessTokens(new MacKey(), clock);
    const token = tokens.issue('signin', 'u1', null);
    expect(tokens.verify(token)).toEqual({ ok: true, claims: { kind: 'signin', userId: 'u1', tenant: null, expiresAt: clock.now() + 300_000 } });
    clock.advance(299);
    expect(tokens.verify(token).ok).toBe(true);
    clock.advance(1);
    expect(tokens.verify(token)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuse tampered, truncated and foreign tokens', () => {
    const { clock } = fixedClock();
    const tokens = new AccessTokens(new MacKey(), clock);
    const token = tokens.issue('partner', 'u1', 'acme');
    expect(tokens.verify(token.replace('.acme.', '.globex.')).ok).toBe(false);
    expect(tokens.verify(token.slice(0, -2)).ok).toBe(false);
    expect(tokens.verify(`${token}A`).ok).toBe(false);
    expect(tokens.verify('at1.').ok).toBe(false);
    expect(new AccessTokens(new MacKey(), clock).verify(token).ok).toBe(false);
    expect(tokens.verify(token)).toMatchObject({ ok: true, claims: { kind: 'partner', tenant: 'acme' } });
  });
});
