/** Thresholds: parsed before any load is sent; a breach exits 4 and names the threshold. */
import { describe, expect, it } from 'vitest';
import { EXIT, isTackError } from '../../../src/harness/errors.js';
import { compareWithBaseline } from '../../../src/load/results/comparison.js';
import { parseThreshold, samplesNeeded } from '../../../src/load/results/thresholds.js';
import { load } from '../helpers.js';

describe('threshold expressions', () => {
  it.each([
    ['p99<20ms', { kind: 'percentile', q: 99 }, '<', 20_000],
    ['p99.9 <= 1.5ms', { kind: 'percentile', q: 99.9 }, '<=', 1500],
    ['p999<250us', { kind: 'percentile', q: 99.9 }, '<', 250],
    ['p50<0.001ms', { kind: 'percentile', q: 50 }, '<', 1],
    ['p90<2ms', { kind: 'percentile', q: 90 }, '<', 2000],
    ['p10<2ms', { kind: 'percentile', q: 10 }, '<', 2000],
    ['p5<2ms', { kind: 'percentile', q: 5 }, '<', 2000],
    ['p99.99<3ms', { kind: 'percentile', q: 99.99 }, '<', 3000],
    ['p9999<3ms', { kind: 'percentile', q: 99.99 }, '<', 3000],
    ['p99.5<3ms', { kind: 'percentile', q: 99.5 }, '<', 3000],
    ['p995<3ms', { kind: 'percentile', q: 99.5 }, '<', 3000],
    // Regression: p100 was read as p10.0.
    ['p100<5ms', { kind: 'percentile', q: 100 }, '<', 5000],
    ['p100.0<5ms', { kind: 'percentile', q: 100 }, '<', 5000],
    ['max<1s', { kind: 'max' }, '<', 1_000_000],
    ['MAX<1s', { kind: 'max' }, '<', 1_000_000],
    ['errors==0', { kind: 'count', name: 'errors' }, '==', 0],
    ['rps>=5000', { kind: 'rps' }, '>=', 5000],
    ['error_rate<1%', { kind: 'error_rate' }, '<', 1],
  ])('%s', (expr, metric, op, value) => {
    expect(parseThreshold(expr)).toEqual({ expr: expr.trim(), metric, op, value });
  });

  it.each([
    ['exchange.p99<20ms', 'exchange', { kind: 'percentile', q: 99 }, 20_000],
    ['search.p99.9<5ms', 'search', { kind: 'percentile', q: 99.9 }, 5000],
    ['mint.errors==0', 'mint', { kind: 'count', name: 'errors' }, 0],
    ['refresh.rps>=100', 'refresh', { kind: 'rps' }, 100],
  ])('%s is about one request kind', (expr, scope, metric, value) => {
    expect(parseThreshold(expr)).toMatchObject({ scope, metric, value });
  });

  it('the sample rule: ten answers above a percentile', () => {
    const needed = (e: string) => samplesNeeded(parseThreshold(e).metric);
    expect(['p50<1s', 'p90<1s', 'p99<1s', 'p99.9<1s', 'p99.99<1s', 'max<1s', 'p100<1s', 'mean<1s', 'rps>=1', 'errors==0'].map(needed)).toEqual([
      20, 100, 1000, 10_000, 100_000, 1, 1, 20, 0, 0,
    ]);
  });

  const typos = ['p99<20', 'p99<<20ms', 'latency<20ms', 'errors==none', 'p0<1ms', 'error_rate<1', 'rps>=fast', 'login.p99<1ms', 'exchange.latency<1ms'];
  // Percentile names that are no percentile, or that could be read two ways (p950: 95.0 or 950?).
  const notPercentiles = ['p101<1ms', 'p100.1<1ms', 'p950<1ms', 'p1000<1ms', 'p000<1ms'];
  it.each([...typos, ...notPercentiles])('refuses %s as a usage error', (expr) => {
    try {
      parseThreshold(expr);
      expect.unreachable();
    } catch (error) {
      expect(isTackError(error, 'TACK_ERR_USAGE')).toBe(true);
      expect((error as Error).message).toContain(expr);
    }
  });
});

describe('a breached threshold', () => {
  it("exits 4 and names it: a per-endpoint --threshold 'search.p99<0.001ms' fails a run whose other thresholds hold", async () => {
    const thresholds = ['search.p99<0.001ms', 'exchange.errors==0', 'p99<60s', 'errors==0', 'p100<60s', 'max<60s', 'exchange.p99.9<60s'];
    const run = await load('exchange-search', { duration: '1s', connections: 2, threshold: thresholds });
    expect(run.exitCode).toBe(EXIT.threshold);
    expect(run.result.verdict.reasons).toEqual([expect.stringMatching(/^threshold breached: search\.p99<0\.001ms \(actual \d/)]);
    expect(run.output).toContain('threshold breached: search.p99<0.001ms');
    expect(run.result.thresholds.find((t) => t.expr === 'search.p99<0.001ms')?.ok).toBe(false);
    expect(run.result.thresholds.find((t) => t.expr === 'errors==0')?.ok).toBe(true);
    expect(run.result.thresholds.find((t) => t.expr === 'exchange.errors==0')?.ok).toBe(true);
    // Two exchanges cannot judge a p99.9: said, with the count, never a silent pass.
    const few = run.result.thresholds.find((t) => t.expr === 'exchange.p99.9<60s');
    expect(few?.samples).toEqual({ answers: run.result.endpoints!.exchange!.measured.responses, needed: 10_000 });
    expect(run.output).toMatch(/⚠ too few samples: exchange\.p99\.9<60s judged on \d+ answer\(s\), fewer than its 10 000/);
    expect(run.result.verdict.exitCode).toBe(EXIT.threshold);
    // p100 is the maximum, the same figure as max.
    const p100 = run.result.thresholds.find((t) => t.expr === 'p100<60s');
    expect(p100?.ok).toBe(true);
    expect(p100?.actual).toBe(run.result.thresholds.find((t) => t.expr === 'max<60s')?.actual);

    // --baseline: the same result is no regression; one with twice the throughput is.
    expect(compareWithBaseline(run.result, run.result, 20).every((t) => t.ok)).toBe(true);
    const faster = { ...run.result, measuredS: run.result.measuredS / 2 };
    const rps = compareWithBaseline(run.result, faster, 20).find((t) => t.expr === 'baseline rps -20%');
    expect(rps?.ok).toBe(false);
    expect(rps?.actual).toMatch(/-50\.0%/);
  });

  it('a threshold typo is refused before any load is sent', async () => {
    await expect(load('exchange', { threshold: ['p99<20'] })).rejects.toMatchObject({ code: 'TACK_ERR_USAGE' });
  });

  it('a threshold on a request kind the profile never sends is refused before any load is sent', async () => {
    await expect(load('partner-mint', { threshold: ['exchange.p99<20ms'] })).rejects.toMatchObject({
      code: 'TACK_ERR_USAGE',
      message: expect.stringContaining("partner-mint sends no exchange request (it sends mint); name one of those, e.g. 'mint.p99<20ms'"),
    });
  });
});

describe('stop early: :abort (k6 abortOnFail)', () => {
  it.each([
    ['p99<200ms:abort', 5000],
    ['p99<200ms:abort=10s', 10_000],
    ['errors==0:abort=0s', 0],
    ['p99<200ms:abortOnFail', 5000],
    ['p99<200ms:abortOnFail:delayAbortEval=2s', 2000],
    ['exchange.p99<20ms:abort=500ms', 500],
  ])('%s stops at a sustained breach after %d ms of grace', (expr, graceMs) => {
    const spec = parseThreshold(expr);
    expect(spec.abort).toEqual({ graceMs });
    expect(spec.expr).toBe(expr);
  });

  it('a threshold without it stops nothing', () => {
    expect(parseThreshold('p99<200ms').abort).toBeUndefined();
  });

  it.each([
    ['p99<200ms:delayAbortEval=2s', 'needs :abortOnFail'],
    ['p99<200ms:abort=ten', 'takes a duration with its unit'],
    ['p99<200ms:stop', 'unknown modifier ":stop"'],
    ['p99<200ms:delayAbortEval', 'takes a duration'],
  ])('%s is a usage error', (expr, words) => {
    expect(() => parseThreshold(expr)).toThrow(expect.objectContaining({ code: 'TACK_ERR_USAGE', message: expect.stringContaining(words) }));
  });

  it('is refused with --find-capacity (each step is judged on its own)', async () => {
    await expect(load('exchange', { duration: undefined, findCapacity: true, threshold: ['p99<1s:abort'] })).rejects.toMatchObject({
      code: 'TACK_ERR_USAGE',
      message: expect.stringContaining(':abort stops a fixed run'),
    });
  });
});
