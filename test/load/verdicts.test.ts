/**
 * Load verdicts rest on the spec, not on leniency: an exchange that hands back the refresh token it
 * was sent fails (no rotation), `expires_in` must be the integer 300, and a 401 from search is the
 * expected end of an access token only once the token is 300 s − TACK_ACCESS_TOLERANCE_S old.
 */
import { describe, expect, it } from 'vitest';
import { LoadChain } from '../../src/load/chains/chain.js';
import { SearchConversation } from '../../load-profiles/exchange-search.js';
import { judgeExchange } from '../../load-profiles/wire.js';
import { EXIT } from '../../src/harness/errors.js';
import type { Tally } from '../../src/load/engine/engine.js';
import type { Endpoint } from '../../src/load/engine/target.js';
import { load } from './helpers.js';

const exchange200 = (fields: Record<string, unknown>) =>
  JSON.stringify({ access_token: 'at', refresh_token: 'rt-next', token_type: 'Bearer', expires_in: 300, ...fields });

describe('expires_in must be exactly the integer 300', () => {
  it.each([[299], [3600], [0], ['300'], [300.5], [null]])('expires_in %j is against the spec', (value) => {
    const a = judgeExchange(200, exchange200({ expires_in: value }));
    expect(a.kind).toBe('malformed');
    expect(a.kind === 'malformed' && a.detail).toMatch(/expires_in .*not the integer 300/);
    // The chain can still go on with the refresh token it was given.
    expect(a.kind === 'malformed' && a.refreshToken).toBe('rt-next');
  });

  it('expires_in 300 is a rotation', () => {
    expect(judgeExchange(200, exchange200({}))).toMatchObject({ kind: 'rotated', refreshToken: 'rt-next', expiresIn: 300 });
  });
});

describe('an exchange that returns the same refresh token fails the run', () => {
  it.each(['exchange', 'exchange-search'])('%s against rotation-same-token: exit 1, "rotation broken"', async (profile) => {
    const run = await load(profile, { duration: '700ms', connections: 2, fault: ['rotation-same-token'] });
    expect(run.exitCode).toBe(EXIT.mustFailed);
    expect(run.result.measured.malformed + run.result.warmup.malformed).toBeGreaterThan(0);
    expect(run.result.measured.rotations + run.result.warmup.rotations).toBe(0);
    expect(run.result.verdict.reasons.join('\n')).toMatch(/against the spec: exchange 200 returned the refresh_token it was sent: rotation broken/);
  });
});

describe('a search 401 is expected only for an access token at its lifetime minus the tolerance', () => {
  const endpoint: Endpoint = { connectUrl: 'http://127.0.0.1:1', host: 'x.localhost:1', pathPrefix: '', servername: undefined, loopback: true };
  const tally: Tally = { rotation: () => undefined, note: () => undefined };

  function conversation(toleranceS: number) {
    let now = 1_000_000;
    const conv = new SearchConversation(new LoadChain('chain 1', 'rt-0', undefined), endpoint, endpoint, 'payroll-portal', tally, toleranceS, () => now);
    // Exchange at t=0, then one good search.
    expect(conv.next().method).toBe('POST');
    expect(conv.answer(200, exchange200({}))).toEqual({ kind: 'ok' });
    expect(conv.next().method).toBe('GET');
    expect(conv.answer(200, JSON.stringify({ items: [], pageIndex: 0, pageSize: 20, totalCount: 0 }))).toEqual({ kind: 'ok' });
    return { conv, at: (s: number) => (now = 1_000_000 + s * 1000) };
  }

  it.each([
    [5, 10, 'malformed'],
    [5, 294, 'malformed'],
    [5, 295, 'expected'],
    [5, 400, 'expected'],
    [15, 284, 'malformed'],
    [15, 285, 'expected'],
    [0, 299, 'malformed'],
  ])('tolerance %i s: a 401 at %i s is %s', (toleranceS, ageS, kind) => {
    const { conv, at } = conversation(toleranceS);
    // The search is sent before the client's own re-exchange (30 s before expiry); its 401 arrives at ageS.
    at(Math.min(ageS, 269));
    expect(conv.next().method).toBe('GET');
    at(ageS);
    const outcome = conv.answer(401, '');
    expect(outcome.kind).toBe(kind);
    if (kind === 'malformed') expect(outcome.kind === 'malformed' && outcome.detail).toContain(`younger than ${300 - toleranceS} s`);
  });
});
