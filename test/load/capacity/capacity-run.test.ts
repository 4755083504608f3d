/**
 * Capacity search (`--find-capacity`) for real, in short runs: against the reference server it finds
 * a positive capacity; against a deliberately slow target no step holds (exit 4), in bounded time;
 * against a reference fault that breaks the spec it fails (exit 1), never "threshold". Steps are
 * short, rates low and thresholds need few answers (a p99 would stretch a step at a low rate to
 * its 1 000 answers): these tests pin behaviour, never speed. The algorithm itself (retry,
 * bisection, the sample rule) is pinned deterministically in capacity.test.ts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPACITY_DEFAULTS, planCapacity } from '../../../src/load/capacity/capacity.js';
import { warmupMsOf } from '../../../src/cli/commands/load.js';
import { EXIT, isTackError } from '../../../src/harness/errors.js';
import { dir, load } from '../helpers.js';
import { startSlowTarget, type SlowTarget } from '../slow-target.js';
import { scaled } from '../../helpers/time-limits.js';

describe('the plan of a search', () => {
  it('defaults: ×2 steps of 5 s from 50 to 102 400 req/s, about a minute of steps in all', () => {
    const plan = planCapacity({});
    expect(plan.rates).toEqual([50, 100, 200, 400, 800, 1600, 3200, 6400, 12_800, 25_600, 51_200, 102_400]);
    expect(plan.rates.length * plan.stepMs).toBeLessThanOrEqual(3 * 60_000);
    expect(plan).toMatchObject({ factor: CAPACITY_DEFAULTS.factor, increment: null, stepMs: 5000, resolution: { pct: 10 } });
  });

  it('a warmup before the first step by default (none before a fixed load); --warmup wins', () => {
    expect(warmupMsOf({}, true)).toBe(CAPACITY_DEFAULTS.warmupMs);
    expect(CAPACITY_DEFAULTS.warmupMs).toBeGreaterThan(0);
    expect(warmupMsOf({}, false)).toBe(0);
    expect(warmupMsOf({ warmup: '0s' }, true)).toBe(0);
    expect(warmupMsOf({ warmup: '2s' }, false)).toBe(2000);
  });

  it('--resolution: a share of the held rate or req/s', () => {
    expect(planCapacity({ resolution: { pct: 5 } }).resolution).toEqual({ pct: 5 });
    expect(planCapacity({ resolution: { rps: 250 } }).resolution).toEqual({ rps: 250 });
  });

  it('an increment instead of a factor', () => {
    expect(planCapacity({ startRate: 100, increment: 250, maxRate: 1000 }).rates).toEqual([100, 350, 600, 850]);
    expect(planCapacity({ startRate: 10, factor: 1.5, maxRate: 40 }).rates).toEqual([10, 15, 23, 34]);
  });

  it.each([
    [{ factor: 1 }, '--rate-factor'],
    [{ factor: 2, increment: 10 }, 'not both'],
    [{ startRate: 0 }, '--start-rate'],
    [{ startRate: 500, maxRate: 100 }, '--max-rate'],
    [{ startRate: 1, increment: 1, maxRate: 1000 }, 'more than 40 steps'],
    [{ stepMs: 120_000 }, 'minutes'],
    [{ stepMs: 100 }, '--step-duration'],
  ])('refuses %j naming the flag (exit 2)', (flags, words) => {
    try {
      planCapacity(flags);
      expect.unreachable();
    } catch (error) {
      expect(isTackError(error, 'TACK_ERR_USAGE')).toBe(true);
      expect((error as Error).message).toContain(words);
    }
  });

  it.each([
    [{ startRate: '100' }, '--start-rate applies only with --find-capacity'],
    [{ findCapacity: true, duration: '10s' }, '--step-duration, not --duration'],
    [{ findCapacity: true, shard: '1/2' }, 'drop --shard'],
    [{ findCapacity: true, rate: '100' }, 'drop --rate'],
    [{ findCapacity: true, startRate: 'fast' }, '--start-rate takes requests per second'],
    [{ findCapacity: true, resolution: '100%' }, '--resolution takes'],
    [{ resolution: '10%' }, '--resolution applies only with --find-capacity'],
    [{ allowUnstable: true }, '--allow-unstable applies only with --find-capacity'],
    [{ findCapacity: true, threshold: ['search.p99<1s'] }, 'exchange sends no search request'],
  ])('tack load %j is a usage error before any load', async (flags, words) => {
    const refusal = { code: 'TACK_ERR_USAGE', message: expect.stringContaining(words) };
    await expect(load('exchange', { duration: undefined, ...flags })).rejects.toMatchObject(refusal);
  });
});

describe('against the reference server', () => {
  it('finds a positive capacity, prints the step table as it goes, and records the steps', async () => {
    const run = await load('exchange', {
      duration: undefined,
      connections: 4,
      findCapacity: true,
      startRate: '20',
      maxRate: '40',
      stepDuration: '1s',
      threshold: ['p50<1s', 'errors==0'],
    });
    const capacity = run.result.capacity!;
    // Stable (exit 0), or unstable (exit 5) when the shared machine disturbed it: said either way, never a silent PASSED.
    const stable = capacity.stability?.verdict === 'stable';
    expect(run.exitCode, run.output).toBe(stable ? EXIT.ok : EXIT.unstable);
    expect(run.output).toMatch(stable ? /capacity: \d+ req\/s held, confirmed [12]\/[12]/ : /capacity: unstable: /);
    if (!stable) expect(run.output).toContain('tack: TACK_ERR_UNSTABLE: capacity search unstable: ');
    expect(capacity.steps.filter((s) => s.stage === 'confirm').length).toBeGreaterThanOrEqual(1);
    expect(capacity.maxRate).toBeGreaterThanOrEqual(20);
    expect(capacity.steps[0]).toMatchObject({ rate: 20, stage: 'ladder', attempt: 1, errors: 0, brokenChains: 0 });
    // The headline is the highest held step's own figures (a busy machine may have made a step run twice).
    const head = capacity.steps[capacity.headline!]!;
    expect(head).toMatchObject({ rate: capacity.maxRate, held: true, status: 'held', errors: 0, brokenChains: 0, reasons: [] });
    expect(head.achieved).toBeGreaterThanOrEqual(0.9 * head.rate);
    expect(head.p50).toBeGreaterThan(0);
    expect(head.p99).toBeGreaterThanOrEqual(head.p50);
    expect(head.measured?.responses).toBeGreaterThanOrEqual(20);
    expect(head.generator?.busyPct).toBeGreaterThanOrEqual(0);
    expect(run.output).toContain(`figures at ${capacity.maxRate} req/s, the highest step that held`);
    expect(run.output).toMatch(/step +offered req\/s +achieved +answers +p50 +p99 +errors +broken +generator/);
    expect(run.output).toMatch(new RegExp(`^ {2}${capacity.headline! + 1} (ladder|bisect)( retry)? +${capacity.maxRate} +\\d+(\\.\\d)? .* held$`, 'm'));
    if (stable) expect(run.output).toContain(`capacity: ${capacity.maxRate} req/s held`);
    // The page draws achieved rate and p99 against the offered rate, with the knee marked.
    const html = await import('node:fs').then((fs) => fs.readFileSync(run.htmlFile, 'utf8'));
    expect(html).toContain('Capacity: answers per second against the offered rate');
    expect(html).toContain('Capacity: latency against the offered rate');
    expect(html).toContain(`held: ${capacity.maxRate} req/s`);
    expect(html).toContain(`<th>stability</th><td>${capacity.stability!.verdict}</td>`);
  });
});

describe('against a deliberately slow target', () => {
  let slow: SlowTarget;
  beforeAll(async () => {
    slow = await startSlowTarget(250);
  });
  afterAll(() => slow.close());

  it('no step holds: exit 4, "none held", in bounded time', async () => {
    const pool = join(dir, 'slow-pool.txt');
    writeFileSync(pool, 'made-up-token-1\nmade-up-token-2\nmade-up-token-3\n', { mode: 0o600 });
    const started = performance.now();
    const run = await load(
      'exchange',
      { duration: undefined, connections: 3, findCapacity: true, startRate: '4', stepDuration: '1s', threshold: ['max<50ms'], tokenPool: pool },
      slow.env,
    );
    expect(run.exitCode, run.output).toBe(EXIT.threshold);
    const capacity = run.result.capacity!;
    expect(capacity.maxRate).toBeNull();
    // The breach is run once more before the search gives up; no bisection below the start rate.
    expect(capacity.steps.map((s) => [s.rate, s.attempt, s.status])).toEqual([
      [4, 1, 'breached'],
      [4, 2, 'breached'],
    ]);
    expect(capacity.steps[0]).toMatchObject({ held: false, brokenChains: 0 });
    expect(capacity.steps[0]!.p99).toBeGreaterThan(200_000);
    expect(capacity.steps[0]!.reasons.join()).toContain('max<50ms');
    expect(run.output).toContain('capacity: no step held, not even 4 req/s');
    expect(run.result.verdict.reasons[0]).toMatch(/no step held/);
    expect(slow.requests()).toBeGreaterThan(0);
    // Two 1 s steps and their 250 ms drains: far under the bound even on a busy machine.
    expect(performance.now() - started).toBeLessThan(scaled(30_000));
  });
});

describe('against a target that breaks the spec', () => {
  it('rotation-same-token: the first step is incorrect, the search stops, exit 1 (not 4)', async () => {
    const run = await load('exchange', {
      duration: undefined,
      connections: 2,
      findCapacity: true,
      startRate: '20',
      stepDuration: '500ms',
      threshold: ['p50<1s'],
      fault: ['rotation-same-token'],
    });
    expect(run.exitCode, run.output).toBe(EXIT.mustFailed);
    expect(run.result.capacity!.steps.map((s) => s.status)).toEqual(['incorrect']);
    expect(run.result.verdict.reasons.join('\n')).toMatch(/against the spec: exchange 200 returned the refresh_token it was sent/);
    expect(run.output).toContain('the search stopped at an answer against the spec');
  });
});
