/**
 * The capacity search's algorithm, deterministically: no network, no clock. The step runner is a
 * stub (a target with a known knee, noise that breaks a step once, chains that break at a rate),
 * so ladder, retry, bisection, the sample rule and the verdict are pinned whatever the machine's
 * speed. Real, short searches against the reference are in capacity-run.test.ts.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { exchangeProfile } from '../../../load-profiles/exchange.js';
import { exchangeSearchProfile } from '../../../load-profiles/exchange-search.js';
import { EXIT } from '../../../src/harness/errors.js';
import { neededSamples, runCapacitySearch, type StepRunner } from '../../../src/load/capacity/capacity-run.js';
import {
  checkBound,
  closeEnough,
  judgeStability,
  planCapacity,
  searchCapacity,
  stabilityText,
  stepMsFor,
  type JudgedStep,
  type StepAsk,
} from '../../../src/load/capacity/capacity.js';
import type { Common } from '../../../src/load/results/draft.js';
import { judgeHealth } from '../../../src/load/engine/generator.js';
import { Recorder } from '../../../src/load/engine/recorder.js';
import type { LoadOptions } from '../../../src/load/run.js';
import { parseThreshold } from '../../../src/load/results/thresholds.js';
import type { StepStatus } from '../../../src/load/types.js';

/** A stub search: `status(rate, attempt)` decides each step. */
async function stubSearch(flags: Parameters<typeof planCapacity>[0], status: (rate: number, ask: StepAsk) => StepStatus) {
  const plan = planCapacity(flags);
  const asked: string[] = [];
  const outcome = await searchCapacity(plan, async (rate, ask) => {
    asked.push(`${rate}${ask.stage === 'bisect' ? 'b' : ask.stage === 'confirm' ? 'c' : ''}${ask.attempt > 1 ? 'r' : ''}`);
    return { rate, status: status(rate, ask) };
  });
  return { ...outcome, asked };
}

const knee =
  (k: number) =>
  (rate: number): StepStatus =>
    rate <= k ? 'held' : 'breached';

describe('the search: ladder, retry, bisection', () => {
  it('climbs, confirms the breach once, halves the gap to the resolution, then confirms the knee from both sides', async () => {
    const s = await stubSearch({ startRate: 100, maxRate: 10_000 }, knee(700));
    // 800 breached twice; 600 held, 700 held, 750 breached twice; 700..750 is within 10% of 700; 700 and 750 once more.
    expect(s.asked).toEqual(['100', '200', '400', '800', '800r', '600b', '700b', '750b', '750br', '700c', '750c']);
    expect([s.maxRate, s.breachedRate, s.stopped]).toEqual([700, 750, null]);
    expect(s.steps[s.headline!]!.rate).toBe(700);
  });

  it('a step that breaches once and holds on its retry is noise: the search goes on', async () => {
    const s = await stubSearch({ startRate: 100, maxRate: 10_000 }, (rate, ask) => (rate === 200 && ask.attempt === 1 ? 'breached' : knee(700)(rate)));
    expect(s.asked.slice(0, 4)).toEqual(['100', '200', '200r', '400']);
    expect(s.maxRate).toBe(700);
  });

  it('a resolution in req/s, and an increment ladder', async () => {
    const s = await stubSearch({ startRate: 100, increment: 400, maxRate: 2000, resolution: { rps: 50 } }, knee(640));
    expect(s.asked).toEqual(['100', '500', '900', '900r', '700b', '700br', '600b', '650b', '650br', '600c', '650c']);
    expect([s.maxRate, s.breachedRate]).toEqual([600, 650]);
  });

  it('no step held: the first step is retried, no bisection below the start rate', async () => {
    const s = await stubSearch({ startRate: 100 }, () => 'breached');
    expect(s.asked).toEqual(['100', '100r']);
    expect([s.maxRate, s.headline, s.breachedRate]).toEqual([null, null, 100]);
  });

  it('every rate held: no bisection, the highest rate asked for, confirmed once', async () => {
    const s = await stubSearch({ startRate: 100, maxRate: 400 }, () => 'held');
    expect(s.asked).toEqual(['100', '200', '400', '400c']);
    expect([s.maxRate, s.breachedRate]).toEqual([400, null]);
  });

  it('a step against the spec stops the search at once, without a retry', async () => {
    const s = await stubSearch({ startRate: 100 }, (rate) => (rate >= 400 ? 'incorrect' : 'held'));
    expect(s.asked).toEqual(['100', '200', '400']);
    expect([s.maxRate, s.stopped]).toEqual([200, 'incorrect']);
  });

  it('a step with too few samples is neither held nor breached: the ladder goes on', async () => {
    const s = await stubSearch({ startRate: 100, maxRate: 1600 }, (rate) => (rate === 100 ? 'too-few-samples' : knee(500)(rate)));
    expect(s.asked.slice(0, 4)).toEqual(['100', '200', '400', '800']);
    expect(s.maxRate).toBe(500);
  });

  it('Ctrl-C ends the search after the step under way', async () => {
    const plan = planCapacity({ startRate: 100 });
    let n = 0;
    const s = await searchCapacity(
      plan,
      async (rate) => ({ rate, status: 'held' as const }),
      () => ++n >= 2,
    );
    expect(s.steps.map((x) => x.rate)).toEqual([100, 200]);
    expect(s.stopped).toBe('aborted');
  });

  // The knee found is the same whatever single stalls (one breach at a rate, then a hold) the run meets.
  test.prop([fc.integer({ min: 60, max: 20_000 }), fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 6 })])(
    'finds the knee within the resolution, with or without noise',
    async (k, noisy) => {
      const stalls = new Set(noisy);
      let step = 0;
      const noise = (rate: number, ask: StepAsk): StepStatus => (stalls.has(step++) && ask.attempt === 1 ? 'breached' : knee(k)(rate));
      const quiet = await stubSearch({ startRate: 50 }, knee(k));
      const noisyRun = await stubSearch({ startRate: 50 }, noise);
      expect(noisyRun.maxRate).toBe(quiet.maxRate);
      expect(quiet.maxRate!).toBeLessThanOrEqual(k);
      expect(closeEnough({ pct: 10 }, quiet.maxRate!, quiet.breachedRate!)).toBe(true);
      expect(quiet.breachedRate!).toBeGreaterThan(k);
    },
  );
});

describe('the sample rule sets the length of a step', () => {
  const plan = { stepMs: 5000 };
  it.each([
    [50, 1000, 22_300],
    [1000, 1000, 5000],
    [50, 20, 5000],
    [1, 10_000, 60_000],
  ])('at %d req/s, %d answers needed: %d ms', (rate, needed, ms) => {
    expect(stepMsFor(plan, rate, needed)).toBe(ms);
  });

  it('the strictest threshold over every answer decides; one on a kind among several cannot be planned for', () => {
    const specs = (xs: string[]) => xs.map((e) => ({ spec: parseThreshold(e), source: 'cli' as const }));
    expect(neededSamples(specs(['p99<20ms', 'p50<1ms', 'errors==0']), exchangeProfile.kinds)).toBe(1000);
    expect(neededSamples(specs(['exchange.p99.9<20ms']), exchangeProfile.kinds)).toBe(10_000);
    expect(neededSamples(specs(['exchange.p99<20ms', 'p90<5ms']), exchangeSearchProfile.kinds)).toBe(100);
  });

  it('a search the sample rule would make longer than 15 minutes is refused (exit 2); the defaults with a p99 are not', () => {
    expect(() => checkBound(planCapacity({}), 1000)).not.toThrow();
    expect(() => checkBound(planCapacity({ startRate: 1, maxRate: 1000, factor: 1.3, stepMs: 500 }), 10_000)).toThrow(
      expect.objectContaining({ code: 'TACK_ERR_USAGE', message: expect.stringMatching(/more than 15 minutes/) }),
    );
  });
});

// ── The search run with a stubbed engine: a real Recorder fed synthetic answers, no socket, no clock.

interface Target {
  /** Rates above it answer 2% of requests in 50 ms (a p99 breach); below it every answer takes 1 ms. */
  readonly knee: number;
  /** From this rate on, one chain breaks (invalid_grant on its current token). */
  readonly breaksAt?: number;
  /** Steps (by their number, from 0) that stall once: every answer of the step takes 50 ms. */
  readonly stalls?: ReadonlySet<number>;
  readonly saturatedFrom?: number;
  /** Steps (by their number) whose status is flipped: a held one breaches (every answer 50 ms). */
  readonly flipped?: ReadonlySet<number>;
  /** The machine's load average at each step's end (default 0.5 on 2 cores). */
  readonly load?: number;
}

function stubEngine(t: Target): { runner: StepRunner; durations: number[] } {
  const durations: number[] = [];
  const runner: StepRunner = async (rate, warmupMs, durationMs) => {
    const step = durations.length;
    durations.push(durationMs);
    const rec = new Recorder({ startedAt: 0, warmupMs, durationMs, fixedRate: true });
    const n = Math.floor((rate * durationMs) / 1000);
    const chain = { label: 'chain 1', rotations: 0 };
    for (let i = 0; i < n; i++) {
      const now = rec.measureFrom + ((i + 0.5) * durationMs) / n;
      const slow = t.stalls?.has(step) || t.flipped?.has(step) || (rate > t.knee && i % 50 === 0);
      const ms = slow ? 50 : 1;
      rec.response(200, ms, now, ms, 'exchange');
      rec.outcome({ kind: 'ok' }, now, chain, 200, 'exchange');
    }
    if (t.breaksAt !== undefined && rate >= t.breaksAt) {
      const now = rec.measureFrom + 1;
      rec.response(400, 1, now, 1, 'exchange');
      rec.outcome({ kind: 'broken', cause: 'rotation', error: '400 invalid_grant' }, now, chain, 400, 'exchange');
    }
    const busy = t.saturatedFrom !== undefined && rate >= t.saturatedFrom ? 97 : 20;
    const generator = judgeHealth({ cpuPct: busy, busyPct: busy, loopDelayUs: { p50: 0, p99: 100, max: 200 }, late: { slots: 0, answers: n, seconds: 1 } });
    return { recorder: rec, conversations: [], connections: 4, slots: { due: n, sent: n }, startedAt: new Date(0), finishedAt: new Date(0), generator };
  };
  return { runner, durations };
}

async function search(t: Target, flags: Parameters<typeof planCapacity>[0], thresholds: string[], warmupMs = 0, allowUnstable = false) {
  const o = { profile: exchangeProfile, warmupMs, version: 'test', failOnErrors: true, allowUnstable } as unknown as LoadOptions;
  const common: Common = {
    o,
    runId: 'r1',
    target: { baseUrl: 'http://x', identityUrl: 'http://y', builtIn: false, faults: [] },
    timeoutMs: 5000,
    chains: 'pool',
  };
  const { runner, durations } = stubEngine(t);
  let output = '';
  const specs = thresholds.map((e) => ({ spec: parseThreshold(e), source: 'cli' as const }));
  const io = { write: (s: string) => (output += s), progress: () => undefined };
  const machineLoad = () => ({ load: t.load ?? 0.5, cores: 2 });
  const result = await runCapacitySearch(planCapacity(flags), common, specs, io, runner, { finish: () => undefined as never }, machineLoad);
  return { result, output, durations };
}

describe('a capacity search, judged', () => {
  it('extends low-rate steps for a p99, reports each step alone and the highest held step as the headline', async () => {
    const { result, output, durations } = await search({ knee: 1000 }, { startRate: 100, maxRate: 6400 }, ['p99<20ms'], 2000);
    const c = result.capacity!;
    expect(result.verdict.exitCode).toBe(EXIT.ok);
    // 100 req/s needs 1000 / 90 s for a p99: 11.2 s; 200: 5.6 s; from 400 on the 5 s of the plan.
    expect(durations.slice(0, 3)).toEqual([11_200, 5600, 5000]);
    expect(c.steps.map((s) => `${s.rate}${s.stage === 'bisect' ? 'b' : s.stage === 'confirm' ? 'c' : ''}${s.attempt === 2 ? 'r' : ''}:${s.status}`)).toEqual([
      '100:held',
      '200:held',
      '400:held',
      '800:held',
      '1600:breached',
      '1600r:breached',
      '1200b:breached',
      '1200br:breached',
      '1000b:held',
      '1100b:breached',
      '1100br:breached',
      '1000c:held',
      '1100c:breached',
    ]);
    expect([c.maxRate, c.breachedRate]).toEqual([1000, 1100]);
    const head = c.steps[c.headline!]!;
    expect(head.rate).toBe(1000);
    // Its own percentiles: 1 ms throughout, not the 50 ms of the steps above the knee.
    expect([head.p50, head.p99, head.max]).toEqual([1000, 1000, 1000]);
    expect(result.thresholds).toEqual([{ expr: 'p99<20ms', ok: true, actual: '1.00ms', source: 'cli' }]);
    expect(c.stability).toEqual({ verdict: 'stable', confirmed: 2, confirmations: 2, low: 1000, high: 1100, flips: 0, disturbed: 0, reasons: [] });
    expect(output).toContain('capacity: 1 000 req/s held, confirmed 2/2; 1 100 req/s did not (resolution 10%)');
    expect(output).toMatch(/^ {2}12 confirm +1 000 .* held$/m);
    expect(output).toMatch(/^ {2}5 ladder +1 600 .* breached: threshold breached: p99<20ms \(actual 50\.\d+ms\)$/m);
    expect(output).toMatch(/^ {2}6 ladder retry +1 600 /m);
    expect(output).toContain('2s warmup first');
  });

  it('one stall does not decide the verdict: the same knee with and without it', async () => {
    const quiet = await search({ knee: 1000 }, { startRate: 100, maxRate: 6400 }, ['p99<20ms']);
    const stalled = await search({ knee: 1000, stalls: new Set([0, 3]) }, { startRate: 100, maxRate: 6400 }, ['p99<20ms']);
    expect(stalled.result.capacity!.maxRate).toBe(quiet.result.capacity!.maxRate);
    expect(stalled.result.capacity!.steps[1]).toMatchObject({ rate: 100, attempt: 2, status: 'held' });
  });

  it('too few answers for a p99.9 at the step cap: "too few samples", never a silent pass', async () => {
    const { result, output } = await search({ knee: 1e9 }, { startRate: 1, maxRate: 2, stepMs: 500 }, ['p99.9<20ms']);
    expect(result.capacity!.steps.map((s) => s.status)).toEqual(['too-few-samples', 'too-few-samples']);
    expect(result.capacity!.maxRate).toBeNull();
    expect(result.verdict.exitCode).toBe(EXIT.threshold);
    expect(result.verdict.reasons[0]).toMatch(/no step could be judged: too few samples/);
    expect(output).toMatch(/too few samples: p99\.9<20ms judged on 60 answer\(s\), fewer than its 10 000/);
  });

  it('chains that break at a higher rate fail the run (exit 1) whatever capacity held below', async () => {
    const { result, output } = await search({ knee: 1e9, breaksAt: 400 }, { startRate: 100, maxRate: 6400 }, ['p50<20ms']);
    expect(result.capacity!.maxRate).toBe(200);
    expect(result.capacity!.steps.map((s) => s.status)).toEqual(['held', 'held', 'incorrect']);
    expect(result.verdict.exitCode).toBe(EXIT.mustFailed);
    expect(result.verdict.reasons[0]).toMatch(/^rotation broke under load: 1 chain/);
    expect(output).toContain('capacity: 200 req/s held; the search stopped at an answer against the spec');
  });

  it('every rate held: the highest asked for, and where to look further', async () => {
    const { result, output } = await search({ knee: 1e9 }, { startRate: 100, maxRate: 400 }, ['p50<20ms']);
    expect([result.capacity!.maxRate, result.capacity!.breachedRate, result.verdict.exitCode]).toEqual([400, null, EXIT.ok]);
    expect(output).toContain('capacity: 400 req/s held, confirmed 1/1 (the highest rate asked for: raise --max-rate to look further)');
  });

  it('a spec violation in the first step is exit 1, never 4', async () => {
    const { result } = await search({ knee: 1e9, breaksAt: 0 }, { startRate: 100 }, ['p50<20ms']);
    expect(result.capacity!.maxRate).toBeNull();
    expect(result.verdict.exitCode).toBe(EXIT.mustFailed);
  });

  it('a saturated generator at the knee makes the search unstable (exit 5), and says where', async () => {
    const { result, output } = await search({ knee: 1000, saturatedFrom: 1100 }, { startRate: 100, maxRate: 6400 }, ['p99<20ms']);
    expect(result.generator?.saturated).toBe(true);
    expect(result.capacity!.stability).toMatchObject({ verdict: 'unstable', confirmed: 2, low: 1000, high: 1100, disturbed: 7 });
    expect(output).toContain('capacity: unstable: between 1 000 and 1 100 req/s; the load generator was saturated at 1 600, 1 200, 1 100 req/s');
    expect(result.verdict).toEqual({
      exitCode: EXIT.unstable,
      reasons: [expect.stringMatching(/^capacity search unstable: between 1 000 and 1 100 req\/s; .*: not a figure to quote$/)],
    });
  });

  it('a busy machine (load average beyond the cores) makes it unstable; --allow-unstable exits 0 and still says so', async () => {
    const { result } = await search({ knee: 1000, load: 5.2 }, { startRate: 100, maxRate: 6400 }, ['p99<20ms']);
    expect(result.capacity!.stability!.reasons).toEqual(["the generator's machine was busy: load 5.2 on 2 core(s)"]);
    expect(result.verdict.exitCode).toBe(EXIT.unstable);
    const allowed = await search({ knee: 1000, load: 5.2 }, { startRate: 100, maxRate: 6400 }, ['p99<20ms'], 0, true);
    expect(allowed.result.verdict).toEqual({ exitCode: EXIT.ok, reasons: [] });
    expect(allowed.result.capacity!.stability!.verdict).toBe('unstable');
  });

  // The regression: three searches found 2 400, 4 800 and 2 600 req/s, each "held", PASSED.
  it('a confirmation that disagrees makes the search unstable, with the range the knee lies in', async () => {
    // Step 11 (from 0) is the confirmation of 1 000 req/s: it breaches this time.
    const { result, output } = await search({ knee: 1000, flipped: new Set([11]) }, { startRate: 100, maxRate: 6400 }, ['p99<20ms']);
    const c = result.capacity!;
    expect(c.steps[11]).toMatchObject({ stage: 'confirm', rate: 1000, status: 'breached' });
    expect(c.stability).toMatchObject({ verdict: 'unstable', confirmed: 1, confirmations: 2, low: 800, high: 1100 });
    expect(c.stability!.reasons).toEqual(['1 of 2 confirmation(s) disagreed']);
    expect(output).toContain(
      'capacity: unstable: between 800 and 1 100 req/s; 1 of 2 confirmation(s) disagreed (the search found 1 000 req/s held, 1 100 not)',
    );
  });

  it('retries that flip are noise: the knee is the same, and the search says it is unstable', async () => {
    const { result } = await search({ knee: 1000, flipped: new Set([0, 3]) }, { startRate: 100, maxRate: 6400 }, ['p99<20ms']);
    expect(result.capacity!.maxRate).toBe(1000);
    expect(result.capacity!.stability).toMatchObject({ verdict: 'unstable', flips: 2, confirmed: 2, low: 1000, high: 1100 });
    expect(result.capacity!.stability!.reasons).toEqual(['2 step(s) disagreed on retry']);
  });
});

describe('judgeStability and its words', () => {
  const step = (rate: number, status: 'held' | 'breached', stage: JudgedStep['stage'] = 'ladder', attempt = 1): JudgedStep => ({
    rate,
    stage,
    attempt,
    status,
    held: status === 'held',
  });

  it('every rate held up to the highest asked for, on a busy machine: unstable, "at least" the rate found', () => {
    const steps = [step(20, 'held'), step(40, 'held'), { ...step(40, 'held', 'confirm'), load: 46.1 }];
    const s = judgeStability(steps, 40, null, 2);
    expect(s).toMatchObject({ verdict: 'unstable', confirmed: 1, confirmations: 1, low: 40, high: 40, disturbed: 1 });
    expect(stabilityText(s, { maxRate: 40, breachedRate: null })).toBe("unstable: at least 40 req/s; the generator's machine was busy: load 46.1 on 2 core(s)");
  });

  it('a confirmation of the rate found that breaches: the knee may lie down to the rate held below it', () => {
    const steps = [step(100, 'held'), step(200, 'held'), step(400, 'breached'), step(400, 'breached', 'ladder', 2), step(300, 'held', 'bisect')];
    steps.push(step(350, 'breached', 'bisect'), step(350, 'breached', 'bisect', 2), step(300, 'breached', 'confirm'), step(350, 'breached', 'confirm'));
    const s = judgeStability(steps, 300, 350, 2);
    expect(s).toMatchObject({ verdict: 'unstable', confirmed: 1, low: 200, high: 350, flips: 0 });
    expect(stabilityText(s, { maxRate: 300, breachedRate: 350 })).toBe('unstable: between 200 and 350 req/s; 1 of 2 confirmation(s) disagreed');
  });

  it('stable: both confirmations agree, nothing flipped, the machine quiet', () => {
    const steps = [
      step(100, 'held'),
      step(200, 'breached'),
      step(200, 'breached', 'ladder', 2),
      step(100, 'held', 'confirm'),
      step(200, 'breached', 'confirm'),
    ];
    const s = judgeStability(steps, 100, 200, 2);
    expect(s).toEqual({ verdict: 'stable', confirmed: 2, confirmations: 2, low: 100, high: 200, flips: 0, disturbed: 0, reasons: [] });
    expect(stabilityText(s, { maxRate: 100, breachedRate: 200 })).toBe('100 req/s, confirmed 2/2');
  });
});
