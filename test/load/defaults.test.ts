/**
 * The defaults of `tack load` (src/load/defaults.ts) are values the command line itself accepts:
 * a default that its own parser refuses would fail every run that leaves the option out.
 */
import { describe, expect, it } from 'vitest';
import { LOAD_DEFAULTS } from '../../src/load/defaults.js';
import { parseTolerance } from '../../src/load/results/baseline.js';
import { parseThreshold } from '../../src/load/results/thresholds.js';
import { parseDurationMs } from '../../src/load/units.js';

describe('LOAD_DEFAULTS', () => {
  it('the duration parses, and the default thresholds are valid expressions', () => {
    expect(parseDurationMs(LOAD_DEFAULTS.duration, '--duration')).toBeGreaterThan(0);
    for (const t of LOAD_DEFAULTS.thresholds) expect(() => parseThreshold(t)).not.toThrow();
  });

  it('the tolerance reads as --tolerance would, the race probe share is a share', () => {
    expect(parseTolerance(String(LOAD_DEFAULTS.tolerancePct))).toBe(LOAD_DEFAULTS.tolerancePct);
    expect(LOAD_DEFAULTS.raceProbeShare).toBeGreaterThan(0);
    expect(LOAD_DEFAULTS.raceProbeShare).toBeLessThanOrEqual(1);
  });

  it('the capacity search climbs: a rising factor from a start below its ceiling', () => {
    const c = LOAD_DEFAULTS.capacity;
    expect(c.factor).toBeGreaterThan(1);
    expect(c.startRate).toBeGreaterThan(0);
    expect(c.maxRate).toBeGreaterThan(c.startRate);
    expect(c.resolutionPct).toBeGreaterThan(0);
  });

  it('whole positive counts and intervals', () => {
    expect(Number.isInteger(LOAD_DEFAULTS.connections) && LOAD_DEFAULTS.connections > 0).toBe(true);
    expect(LOAD_DEFAULTS.pushIntervalMs).toBeGreaterThan(0);
    expect(LOAD_DEFAULTS.warmupMs).toBeGreaterThanOrEqual(0);
  });
});
