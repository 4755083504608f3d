/**
 * Capacity search (`--find-capacity`): steps of offered rate, each judged on the thresholds and on
 * correctness, stopping at the first that breaks. Against the reference server it finds a positive
 * capacity; against a deliberately slow target no step holds (exit 4), in bounded time. Steps are
 * short and rates low: these tests pin behaviour, never speed.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPACITY_DEFAULTS, planCapacity } from '../../src/load/capacity.js';
import { EXIT, isTackError } from '../../src/harness/errors.js';
import { dir, load } from './helpers.js';
import { startSlowTarget, type SlowTarget } from './slow-target.js';

describe('the plan of a search', () => {
  it('defaults: ×2 steps of 5 s from 50 to 102 400 req/s, about a minute of steps in all', () => {
    const plan = planCapacity({});
    expect(plan.rates).toEqual([50, 100, 200, 400, 800, 1600, 3200, 6400, 12_800, 25_600, 51_200, 102_400]);
    expect(plan.rates.length * plan.stepMs).toBeLessThanOrEqual(3 * 60_000);
    expect(plan).toMatchObject({ factor: CAPACITY_DEFAULTS.factor, increment: null, stepMs: 5000 });
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
    [{ findCapacity: true, startRate: 'fast' }, '--start-rate takes a number'],
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
      maxRate: '80',
      stepDuration: '1s',
      threshold: ['p99<1s', 'errors==0'],
    });
    const capacity = run.result.capacity!;
    expect(run.exitCode, run.output).toBe(EXIT.ok);
    expect(capacity.maxRate).toBeGreaterThanOrEqual(20);
    expect(capacity.steps.map((s) => s.rate)).toEqual(capacity.steps.map((_, i) => 20 * 2 ** i));
    const first = capacity.steps[0]!;
    expect(first).toMatchObject({ rate: 20, held: true, errors: 0, brokenChains: 0, reasons: [] });
    expect(first.achieved).toBeGreaterThanOrEqual(18);
    expect(first.p50).toBeGreaterThan(0);
    expect(first.p99).toBeGreaterThanOrEqual(first.p50);
    expect(run.output).toMatch(/offered req\/s +achieved +p50 +p99 +errors +broken/);
    expect(run.output).toMatch(/^ +20 +\d+(\.\d)? .* held$/m);
    expect(run.output).toContain(`capacity: ${capacity.maxRate} req/s held`);
    // The page draws achieved rate and p99 against the offered rate, with the knee marked.
    const html = await import('node:fs').then((fs) => fs.readFileSync(run.htmlFile, 'utf8'));
    expect(html).toContain('Capacity: answers per second against the offered rate');
    expect(html).toContain('Capacity: latency against the offered rate');
    expect(html).toContain(`held: ${capacity.maxRate} req/s`);
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
      { duration: undefined, connections: 3, findCapacity: true, startRate: '4', stepDuration: '1s', threshold: ['p99<50ms'], tokenPool: pool },
      slow.env,
    );
    expect(run.exitCode, run.output).toBe(EXIT.threshold);
    const capacity = run.result.capacity!;
    expect(capacity.maxRate).toBeNull();
    expect(capacity.steps).toHaveLength(1);
    expect(capacity.steps[0]).toMatchObject({ rate: 4, held: false, brokenChains: 0 });
    expect(capacity.steps[0]!.p99).toBeGreaterThan(200_000);
    expect(capacity.steps[0]!.reasons.join()).toContain('p99<50ms');
    expect(run.output).toContain('capacity: no step held, not even 4 req/s');
    expect(run.result.verdict.reasons[0]).toMatch(/no step held/);
    expect(slow.requests()).toBeGreaterThan(0);
    // One 1 s step and a 250 ms drain: far under the bound even on a busy machine.
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});
