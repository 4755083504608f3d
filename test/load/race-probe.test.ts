/**
 * The exchange profiles' race probe (load-profiles/race-probe.ts, docs/load.md "Race probe"):
 * - the probe's steps on made-up answers: a fork where the policy leaves one usable token is
 *   counted (`forked`), observed where it does not, and every extra token it leaves becomes a spare;
 * - `tack load exchange` with default settings against the built-in reference server: healthy and
 *   its conformant dialects pass (exit 0, probes sent, no fork); a server that forks a chain under
 *   overlap, or whose reuse detection overlap bypasses, fails (exit 1) with the fork counted in the
 *   console, the JSON (whole run and per request kind) and the page. Runs are short and slow.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCommand, raceProbeShareOf } from '../../src/cli/commands/load.js';
import { LoadChain } from '../../src/load/chains/chain.js';
import type { Tally } from '../../src/load/engine/engine.js';
import { FAULTS } from '../../src/reference/faults.js';
import { RaceProbe, refusesOverlap } from '../../load-profiles/race-probe.js';
import { load, options } from './helpers.js';

const identity = { connectUrl: 'http://127.0.0.1:1', host: 'id.localhost', pathPrefix: '/realms/payroll' } as never;

function tally(): Tally & { notes: string[]; rotations: number } {
  const t = { notes: [] as string[], rotations: 0, rotation: () => t.rotations++, note: (n: string) => t.notes.push(n) };
  return t;
}

const ok = (token: string) => JSON.stringify({ access_token: `at-${token}`, refresh_token: token, token_type: 'Bearer', expires_in: 300 });
const refused = JSON.stringify({ error: 'invalid_grant' });

/** Runs one probe on `chain` with the pair's answers, then the answers to trying each token returned. */
function probe(judged: boolean, pair: [number, string][], tries: [number, string][]) {
  const chain = new LoadChain('chain 1 (u@example.com)', 't0', undefined);
  const t = tally();
  const p = new RaceProbe(chain, { judged }, t);
  expect(p.due).toBe(true);
  const first = p.next(identity, 'tack');
  expect(first.together).toBe(2);
  const outcomes = pair.map(([status, body]) => p.answer(status, body).outcome);
  for (const [status, body] of tries) {
    expect(p.due).toBe(true);
    expect(p.next(identity, 'tack').together).toBeUndefined();
    outcomes.push(p.answer(status, body).outcome);
  }
  return { chain, t, outcomes, p };
}

describe('RaceProbe', () => {
  it('counts a fork where the policy leaves one usable token: the chain goes on with one, the other is a spare', () => {
    const { chain, outcomes, p } = probe(
      true,
      [
        [200, ok('a')],
        [200, ok('b')],
      ],
      [
        [200, ok('a2')],
        [200, ok('b2')],
      ],
    );
    expect(outcomes.at(-1)).toEqual({ kind: 'forked', exchanged: 2, alive: 2, afterRotations: 0 });
    expect(chain.token).toBe('a2');
    expect(chain.spares).toEqual(['b2']);
    expect(chain.ended).toBe(false);
    expect(p.due).toBe(false);
  });

  it('observes the same where the policy allows two usable tokens (a note, no fork), and keeps the spare', () => {
    const { chain, t, outcomes } = probe(
      false,
      [
        [200, ok('a')],
        [200, ok('b')],
      ],
      [
        [200, ok('a2')],
        [200, ok('b2')],
      ],
    );
    expect(outcomes.map((o) => o.kind)).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(t.notes.some((n) => n.includes('observed'))).toBe(true);
    expect(chain.spares).toEqual(['b2']);
  });

  it('one token returned and one refused is what a refusing policy does: no fork, no broken chain', () => {
    const { chain, outcomes } = probe(
      true,
      [
        [200, ok('a')],
        [400, refused],
      ],
      [[200, ok('a2')]],
    );
    expect(outcomes.map((o) => o.kind)).toEqual(['ok', 'expected', 'ok']);
    expect(chain.token).toBe('a2');
    expect(chain.spares).toEqual([]);
  });

  it('a reuse that ends the chain ends it quietly: no fork, no broken chain, the connection closes', () => {
    const { chain, outcomes } = probe(
      true,
      [
        [200, ok('a')],
        [400, refused],
      ],
      [[400, refused]],
    );
    expect(outcomes.map((o) => o.kind)).toEqual(['ok', 'expected', 'expected']);
    expect(chain.ended).toBe(true);
  });

  it('two tokens returned, one of them dead afterwards (the reference one at a time), is no fork', () => {
    const { chain, outcomes } = probe(
      true,
      [
        [200, ok('a')],
        [200, ok('b')],
      ],
      [
        [400, refused],
        [200, ok('b2')],
      ],
    );
    expect(outcomes.map((o) => o.kind)).toEqual(['ok', 'ok', 'expected', 'ok']);
    expect(chain.token).toBe('b2');
    expect(chain.spares).toEqual([]);
  });

  it('probes again after 10, then 100 rotations', () => {
    const { chain, p } = probe(
      true,
      [
        [200, ok('a')],
        [400, refused],
      ],
      [[200, ok('a2')]],
    );
    expect(p.due).toBe(false);
    chain.rotations = 10;
    expect(p.due).toBe(true);
  });

  it('a server forking only when three overlap is caught: every other probe sends three copies', () => {
    const { chain, p, t } = probe(
      true,
      [
        [200, ok('a')],
        [400, refused],
      ],
      [[200, ok('a2')]],
    );
    chain.rotations = 10;
    expect(p.next(identity, 'tack').together).toBe(3);
    const outcomes = ['b', 'c', 'd'].map((x) => p.answer(200, ok(x)).outcome);
    for (const x of ['b2', 'c2', 'd2']) {
      p.next(identity, 'tack');
      outcomes.push(p.answer(200, ok(x)).outcome);
    }
    expect(outcomes.at(-1)).toEqual({ kind: 'forked', exchanged: 3, alive: 3, afterRotations: 10 });
    expect(t.notes).toEqual([expect.any(String)]);
  });

  it('odd probing chains send three copies at their first probe, so a short run tries both widths', () => {
    const chain = new LoadChain('chain 2 (u@example.com)', 't0', undefined);
    expect(new RaceProbe(chain, { judged: true, index: 1 }, tally()).next(identity, 'tack').together).toBe(3);
  });

  it('a per-token lock turning the losing copy away with 429 or 503 Retry-After is no error: the overlap refused', () => {
    const { p, chain } = probe(true, [], []);
    expect(p.answer(200, ok('a')).outcome).toEqual({ kind: 'ok' });
    expect(p.answer(429, '', true).outcome).toEqual({ kind: 'expected' });
    p.next(identity, 'tack');
    expect(p.answer(200, ok('a2')).outcome).toEqual({ kind: 'ok' });
    expect(chain.token).toBe('a2');
    expect(refusesOverlap(503, true)).toBe(true);
    expect(refusesOverlap(503, false)).toBe(false);
    expect(refusesOverlap(500, true)).toBe(false);
  });

  it('both copies turned away (429): the token was not used, the chain goes on with it', () => {
    const { p, chain } = probe(true, [], []);
    p.answer(429, '', true);
    p.answer(503, '', true);
    expect([chain.token, chain.ended, p.due]).toEqual(['t0', false, false]);
  });
});

describe('--race-probe SHARE, --no-race-probe', () => {
  it('reads a share of the chains in percent, 10% by default, 0 when turned off', () => {
    expect(raceProbeShareOf(undefined)).toBe(0.1);
    expect(raceProbeShareOf('25%')).toBe(0.25);
    expect(raceProbeShareOf('0%')).toBe(0);
    expect(raceProbeShareOf('0')).toBe(0);
    expect(raceProbeShareOf(false)).toBe(0);
  });

  it.each(['10', '150%', 'lots', '-5%'])('refuses %s (a usage error)', (value) => {
    expect(() => raceProbeShareOf(value)).toThrow(expect.objectContaining({ code: 'TACK_ERR_USAGE' }));
  });

  it('is refused for a profile that sends no exchange, and by the Artillery export (which does not probe)', async () => {
    const io = { write: () => undefined, progress: () => undefined };
    await expect(loadCommand('partner-mint', [], options({ raceProbe: '5%' }), io, {})).rejects.toMatchObject({ code: 'TACK_ERR_USAGE' });
    await expect(loadCommand('export', ['artillery', 'exchange'], options({ raceProbe: false }), io, {})).rejects.toMatchObject({ code: 'TACK_ERR_USAGE' });
  });
});

const known = new Set<string>(FAULTS.map((f) => f.name));
/** The race faults and dialects of the reference: each must exist (a renamed one fails here, not silently). */
const FORKING = ['rotation-forks-under-overlap', 'reuse-detection-bypassed-by-overlap'];
const CONFORMANT = ['rotation-locked-per-token', 'rotation-reuse-once', 'rotation-reuse-ends-chain'];
// Judged on correctness alone: the default p99 threshold is no matter here, and a busy machine breaches it.
const short = { duration: '1500ms', connections: 4, rate: '40', threshold: ['errors==0'] };

describe('tack load exchange, default settings, probes races', () => {
  it('a healthy reference passes: probes sent, its policy seen, no fork, no token left alive', async () => {
    const run = await load('exchange', short);
    expect(run.result.verdict.reasons).toEqual([]);
    expect(run.exitCode).toBe(0);
    const race = run.result.race!;
    expect(race.policy).toBe('replaces');
    expect(race.judged).toBe(true);
    expect(race.chains).toBe(3);
    expect(race.forks).toEqual([]);
    const probes = (run.result.warmup.raceProbes ?? 0) + (run.result.measured.raceProbes ?? 0);
    expect(probes).toBeGreaterThan(0);
    expect(run.result.endpoints!.exchange!.measured.raceProbes ?? 0).toBe(run.result.measured.raceProbes);
    expect(run.output).toMatch(/left alive 0/);
    expect(run.output).toContain('race probe: 3 chain(s)');
    expect(run.output).toMatch(/0 forked \(of \d+ race probe\(s\)\)/);
    expect(readFileSync(run.htmlFile, 'utf8')).toContain('<h2>Race probe</h2>');
  });

  it('--no-race-probe sends none', async () => {
    const run = await load('exchange', { ...short, raceProbe: false });
    expect(run.exitCode).toBe(0);
    expect(run.result.race).toMatchObject({ share: 0, chains: 0, policy: null });
    expect(run.result.measured.raceProbes).toBe(0);
  });

  it.each(FORKING)('%s: exit 1, the fork counted in the console, the JSON, per request kind and the page', async (fault) => {
    expect(known.has(fault)).toBe(true);
    const run = await load('exchange', { ...short, fault: [fault] });
    expect(run.exitCode).toBe(1);
    const forks = (run.result.warmup.forks ?? 0) + (run.result.measured.forks ?? 0);
    expect(forks).toBeGreaterThan(0);
    const exchange = run.result.endpoints!.exchange!;
    expect((exchange.warmup.forks ?? 0) + (exchange.measured.forks ?? 0)).toBe(forks);
    // Two or three copies (the probe alternates), at least two of them still alive: a fork. On a busy
    // machine the third copy of three may reach the store after the first two wrote; it is then a reuse,
    // which this reference's policy (replaces) answers by ending a token the others returned.
    const fork = run.result.race!.forks[0]!;
    expect(fork.exchanged).toBeGreaterThanOrEqual(2);
    expect(fork.alive).toBeGreaterThanOrEqual(2);
    expect(fork.alive).toBeLessThanOrEqual(fork.exchanged);
    expect(run.result.verdict.reasons.some((r) => r.startsWith('rotation forked under concurrency'))).toBe(true);
    expect(run.output).toContain('✘ rotation forked under concurrency');
    expect(readFileSync(run.htmlFile, 'utf8')).toContain('<h2>Race probe</h2>');
    expect(run.output).toMatch(/left alive 0/);
    expect(run.output).not.toMatch(/tpat_|at1\./);
  });

  it.each(CONFORMANT)('%s: passes (exit 0), no fork', async (fault) => {
    expect(known.has(fault)).toBe(true);
    const run = await load('exchange', { ...short, fault: [fault] });
    expect(run.result.verdict.reasons).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(run.result.race!.forks).toEqual([]);
    expect(run.output).toMatch(/left alive 0/);
  });
});
