/**
 * Benchmark part (d): does the capacity search find the same knee twice? Three searches in a row
 * (`tack load exchange --find-capacity`, through `runLoad`) against each of two targets, then the
 * spread of the knees they found (goal within ±25% of their median, ideally within one bisection
 * step), how many judged themselves stable, and the spread of those alone: the searches must
 * agree within a factor of 1.5 or mark themselves unstable, and no two stable ones may differ by
 * more than that.
 * - a target of fixed capacity (bench/bare-server.ts with a capacity: one queue served at N
 *   answers/s, little CPU): its knee does not move with the machine's speed, so the spread is the
 *   search's own;
 * - the reference server in its own process: its knee is where its CPU runs out, so on a shared
 *   machine it moves with what the neighbours take (the closed-model rounds above move too).
 * And a deliberately slow target (every answer after 250 ms): no step holds, and the search ends in
 * bounded time.
 *
 * Settings: BENCH_CAPACITY_CONNECTIONS (50), BENCH_CAPACITY_START (1000 req/s), BENCH_CAPACITY_STEP
 * (5s, tack's default), BENCH_CAPACITY_WARMUP (3s), BENCH_CAPACITY_P99 (50ms), BENCH_CAPACITY_THRESHOLD (the whole
 * expression, default `p99<BENCH_CAPACITY_P99`), BENCH_CAPACITY_SEARCHES (3).
 * A p99 of 50 ms rather than a few: on a shared machine a stall of tens of milliseconds (another
 * process on the core) breaks a tighter p99 at any rate, and the knee then measures the neighbours.
 */
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { exchangeProfile } from '../load-profiles/exchange.js';
import { describeResolution, planCapacity, stabilityText } from '../src/load/capacity/capacity.js';
import { reasonsText } from '../src/load/engine/generator.js';
import { LOAD_DEFAULTS } from '../src/load/defaults.js';
import { runLoad } from '../src/load/run.js';
import type { LoadResult } from '../src/load/types.js';
import { parseDuration } from '../src/cli/options.js';
import { formatCount } from '../src/load/units.js';
import { TACK_VERSION } from '../src/version.js';
import { startSlowTarget } from '../test/load/slow-target.js';

const CONNECTIONS = Number(process.env.BENCH_CAPACITY_CONNECTIONS ?? 50);
const START = process.env.BENCH_CAPACITY_START ?? '1000';
const STEP_MS = parseDuration(process.env.BENCH_CAPACITY_STEP ?? '5s', 'BENCH_CAPACITY_STEP');
const WARMUP_MS = parseDuration(process.env.BENCH_CAPACITY_WARMUP ?? '3s', 'BENCH_CAPACITY_WARMUP');
const P99 = process.env.BENCH_CAPACITY_P99 ?? '50ms';
const SEARCHES = Math.max(1, Number(process.env.BENCH_CAPACITY_SEARCHES ?? 3));
/** The whole threshold of every search; default `p99<BENCH_CAPACITY_P99`. */
const THRESHOLD = process.env.BENCH_CAPACITY_THRESHOLD ?? `p99<${P99}`;

interface Search {
  readonly result: LoadResult;
  readonly exitCode: number;
  readonly seconds: number;
}

async function search(env: Record<string, string>, scratch: string, o: { connections: number; start: string; stepMs: number; warmupMs: number; p: string }) {
  const started = performance.now();
  const { result, exitCode } = await runLoad(
    {
      profile: exchangeProfile,
      env,
      connections: o.connections,
      durationMs: 10_000,
      warmupMs: o.warmupMs,
      thresholds: [o.p],
      tolerancePct: LOAD_DEFAULTS.tolerancePct,
      reportsDir: join(scratch, 'reports'),
      tokenPool: env.TACK_LOAD_TOKEN_POOL,
      allowRemote: false,
      faults: [],
      failOnErrors: LOAD_DEFAULTS.failOnErrors,
      quiet: true,
      version: TACK_VERSION,
      capacity: planCapacity({ startRate: Number(o.start), stepMs: o.stepMs }),
    },
    { write: () => undefined, progress: () => undefined },
  );
  return { result, exitCode, seconds: (performance.now() - started) / 1000 };
}

function describe(n: number, s: Search): string {
  const c = s.result.capacity!;
  const steps = c.steps.length;
  const knee = c.maxRate === null ? 'no step held' : `knee ${formatCount(c.maxRate)} req/s`;
  const above = c.breachedRate != null ? ` (${formatCount(c.breachedRate)} did not)` : '';
  const stable = c.stability ? `, ${c.maxRate !== null ? stabilityText(c.stability, { maxRate: c.maxRate, breachedRate: c.breachedRate }) : ''}` : '';
  const gen = s.result.generator?.saturated ? `; load generator saturated: ${reasonsText(s.result.generator)}` : '';
  const load = s.result.machine ? `, load average ${s.result.machine.loadBefore[0]} → ${s.result.machine.loadAfter[0]}` : '';
  return `search ${n}: ${knee}${above}${stable}, ${steps} step(s), ${s.seconds.toFixed(0)} s${load}, exit ${s.exitCode}${gen}`;
}

/** Three searches against one target; returns whether any was incorrect (exit 1). */
export async function capacityRepeatability(
  target: string,
  env: Record<string, string>,
  scratch: string,
  write: (s: string) => void,
  stepMs = STEP_MS,
): Promise<boolean> {
  write('');
  write(
    `capacity search ×${SEARCHES} against ${target}: exchange, ${CONNECTIONS} connections, ${THRESHOLD}, from ${START} req/s ×2, ` +
      `${stepMs / 1000} s steps (longer when the p99 needs more answers), ${WARMUP_MS / 1000} s warmup, then bisection`,
  );
  const runs: Search[] = [];
  for (let i = 1; i <= SEARCHES; i++) {
    const s = await search(env, scratch, { connections: CONNECTIONS, start: START, stepMs, warmupMs: WARMUP_MS, p: THRESHOLD });
    runs.push(s);
    write(describe(i, s));
  }
  const knees = runs.map((r) => r.result.capacity!.maxRate).filter((k): k is number => k !== null);
  if (knees.length === runs.length && knees.length > 0) {
    const sorted = [...knees].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    const spreadPct = (100 * Math.max(...knees.map((k) => Math.abs(k - median)))) / median;
    const res = runs[0]!.result.capacity!.settings.resolution;
    const step = res && 'pct' in res ? (median * res.pct) / 100 : res && 'rps' in res ? res.rps : NaN;
    const range = sorted[sorted.length - 1]! - sorted[0]!;
    write(
      `capacity knees: ${knees.map(formatCount).join(', ')} req/s; spread ±${spreadPct.toFixed(1)}% around the median ${formatCount(median)} ` +
        `(goal ±25%: ${spreadPct <= 25 ? 'met' : 'NOT met'}); max − min ${formatCount(range)} req/s = ${(range / step).toFixed(1)} bisection step(s) ` +
        `of ${res ? describeResolution(res) : '?'} (goal ≤ 1)`,
    );
  } else write(`capacity knees: ${runs.map((r) => r.result.capacity!.maxRate ?? 'none').join(', ')}: not every search found one`);
  write(repeatabilityLine(runs.map((r) => r.result.capacity!)));
  return runs.some((r) => r.exitCode === 1);
}

/** The goal: the knees agree within a factor of 1.5, or the searches say they are unstable; stable ones never differ by more. */
export const AGREE_FACTOR = 1.5;

/** `3 search(es), 1 judged stable; knees 2 400–4 800 req/s (×2.00); stable ones: 4 800 (×1.00): goal met` */
export function repeatabilityLine(cs: readonly { maxRate: number | null; stability?: { verdict: string } | undefined }[]): string {
  const factor = (xs: number[]) => (xs.length > 0 && Math.min(...xs) > 0 ? Math.max(...xs) / Math.min(...xs) : NaN);
  const knees = cs.map((c) => c.maxRate).filter((k): k is number => k !== null);
  const stable = cs.filter((c) => c.maxRate !== null && c.stability?.verdict === 'stable').map((c) => c.maxRate!);
  const st = factor(stable);
  // Searches that call themselves stable must agree; unstable ones have said they may not.
  const met = stable.length < 2 || st <= AGREE_FACTOR;
  const list = (xs: number[]) => (xs.length > 0 ? `${xs.map(formatCount).join(', ')} req/s${xs.length > 1 ? ` (×${factor(xs).toFixed(2)})` : ''}` : 'none');
  return (
    `repeatability: ${cs.length} search(es), ${stable.length} judged stable; knees ${list(knees)}; stable ones ${list(stable)}; ` +
    `goal (agree within ×${AGREE_FACTOR} or say unstable; no two stable ones further apart): ${met ? 'met' : 'NOT met'}`
  );
}

/** A target answering every request after 250 ms: no step holds, in bounded time. */
export async function slowTargetSearch(scratch: string, write: (s: string) => void): Promise<boolean> {
  const slow = await startSlowTarget(250);
  try {
    const pool = join(scratch, 'slow-pool.txt');
    writeFileSync(pool, 'made-up-token-1\nmade-up-token-2\nmade-up-token-3\n', { mode: 0o600 });
    const s = await search({ ...slow.env, TACK_LOAD_TOKEN_POOL: pool }, scratch, { connections: 3, start: '50', stepMs: 2000, warmupMs: 1000, p: 'p90<50ms' });
    const ok = s.result.capacity!.maxRate === null && s.exitCode === 4;
    write(`slow target (every answer after 250 ms, 3 connections, p90<50ms from 50 req/s): ${describe(1, s)}${ok ? '' : '   UNEXPECTED'}`);
    return !ok;
  } finally {
    await slow.close();
  }
}
