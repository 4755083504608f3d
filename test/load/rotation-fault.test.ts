/**
 * A server that loses rotations under concurrency is broken, not slow: `exchange` against the
 * reference fault rotation-unsafe-under-concurrency fails (exit 1) and says which chain broke,
 * when, and after how many rotations.
 */
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/harness/errors.js';
import { load } from './helpers.js';

describe('exchange against rotation-unsafe-under-concurrency', () => {
  it('fails with "rotation broke under load" and names the chain', async () => {
    const run = await load('exchange', { duration: '1500ms', connections: 8, fault: ['rotation-unsafe-under-concurrency'] });
    expect(run.exitCode).toBe(EXIT.mustFailed);
    expect(run.output).toContain('rotation broke under load');
    const broken = run.result.warmup.broken + run.result.measured.broken;
    expect(broken).toBeGreaterThan(0);
    expect(run.result.breaks.length).toBe(Math.min(broken, 100));
    const first = run.result.breaks[0]!;
    expect(first.cause).toBe('rotation');
    expect(first.chain).toMatch(/^chain \d+ \(/);
    expect(first.error).toContain('invalid_grant');
    expect(first.afterRotations).toBeGreaterThanOrEqual(0);
    expect(run.result.verdict.reasons[0]).toMatch(/^rotation broke under load: \d+ chain/);
    expect(run.output).not.toMatch(/tpat_|at1\./);
  });
});
