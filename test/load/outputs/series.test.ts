/**
 * The figures a run pushes while it lasts (src/load/outputs/series.ts): counters per endpoint,
 * latency gauges in seconds, and the generator's own state, saturated or not.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { BUSY_PCT, LATE_SHARE_PCT, LOOP_DELAY_US } from '../../../src/load/engine/generator.js';
import { Recorder } from '../../../src/load/engine/recorder.js';
import { type LiveGenerator, liveFigures, type Sample, samplesOf } from '../../../src/load/outputs/series.js';

const rec = new Recorder({ startedAt: 0, warmupMs: 0, durationMs: 60_000, fixedRate: false });
afterAll(() => rec.destroy());
const chain = { label: 'chain 1', rotations: 0 };
for (let i = 0; i < 8; i++) {
  rec.response(200, 2, 500, undefined, 'exchange');
  rec.outcome({ kind: 'ok' }, 500, chain, 200, 'exchange');
}
for (let i = 0; i < 2; i++) {
  rec.response(503, 2, 500, undefined, 'exchange');
  rec.outcome({ kind: 'non2xx' }, 500, chain, 503, 'exchange');
}

const IDLE: LiveGenerator = { cpuRatio: 0.2, busyPct: 10, loopDelayUs: 100, lateSlots: null, lateSince: 0, answersSince: 100 };
const value = (samples: readonly Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

describe('samplesOf', () => {
  const samples = samplesOf(liveFigures(rec, 2000, false), IDLE);

  it('counts answers by endpoint and status, and unexpected ones as failures', () => {
    expect(value(samples, 'tack_load_responses_total', { endpoint: 'exchange', status: '200' })).toBe(8);
    expect(value(samples, 'tack_load_responses_total', { endpoint: 'exchange', status: '503' })).toBe(2);
    expect(value(samples, 'tack_load_failures_total', { endpoint: 'exchange', reason: 'unexpected_status' })).toBe(2);
    expect(value(samples, 'tack_load_failures_total', { endpoint: 'exchange', reason: 'timeout' })).toBe(0);
  });

  it('gives latency in seconds, per endpoint and for all, with the four quantiles', () => {
    const p50 = value(samples, 'tack_load_latency_seconds', { endpoint: 'all', quantile: '0.5' })!;
    expect(p50).toBeGreaterThan(0.0019);
    expect(p50).toBeLessThan(0.0021);
    for (const quantile of ['0.5', '0.9', '0.99', '0.999']) {
      expect(value(samples, 'tack_load_latency_seconds', { endpoint: 'exchange', quantile })).toBeDefined();
    }
  });

  it('late slots are sent only in the fixed-rate model (null otherwise)', () => {
    expect(value(samples, 'tack_load_generator_late_slots_total')).toBeUndefined();
    expect(value(samplesOf(liveFigures(rec, 2000, false), { ...IDLE, lateSlots: 3 }), 'tack_load_generator_late_slots_total')).toBe(3);
  });

  it.each([
    ['an idle generator', IDLE, 0],
    ['a busy event loop', { ...IDLE, busyPct: BUSY_PCT }, 1],
    ['a delayed event loop', { ...IDLE, loopDelayUs: LOOP_DELAY_US }, 1],
    ['too many late slots since the last push', { ...IDLE, lateSince: LATE_SHARE_PCT, answersSince: 100 }, 1],
  ] as const)('the generator is saturated: %s → %d', (_name, g, saturated) => {
    expect(value(samplesOf(liveFigures(rec, 2000, false), g), 'tack_load_generator_saturated')).toBe(saturated);
  });
});
