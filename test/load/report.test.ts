/**
 * Reports people read: charts with round ticks at page width, the last partial second drawn as a
 * rate (not a collapse), the machine recorded in every result, and a plain word when the target
 * was the built-in reference server.
 */
import { cpus } from 'node:os';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { logTicks, niceTicks } from '../../src/load/charts.js';
import { secondPoints } from '../../src/load/html.js';
import { load } from './helpers.js';

/** Round ticks: a step of 1, 2, 2.5 or 5 times a power of ten, every tick a whole multiple of it. */
function roundTicks(t: readonly number[]): boolean {
  const step = t[1]! - t[0]!;
  const p = 10 ** Math.floor(Math.log10(step));
  const stepIsRound = [1, 2, 2.5, 5, 10].some((m) => Math.abs(step / p - m) < 1e-9);
  return stepIsRound && t.every((v) => Math.abs(v / step - Math.round(v / step)) < 1e-9);
}

describe('axis ticks are round', () => {
  it.each([
    [0, 2.25, 10, [0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.25]],
    [0, 12_345, 5, [0, 2500, 5000, 7500, 10_000, 12_500]],
    [0, 812, 5, [0, 200, 400, 600, 800, 1000]],
    [0, 1, 5, [0, 0.2, 0.4, 0.6, 0.8, 1]],
  ])('niceTicks(%d, %d, %d)', (lo, hi, count, expected) => {
    expect(niceTicks(lo, hi, count)).toEqual(expected);
  });

  it('every tick of any range is a round number and the ticks cover it', () => {
    for (const hi of [0.7, 3, 17, 99, 1234, 48_611, 3.3e6]) {
      const t = niceTicks(0, hi, 5);
      expect(roundTicks(t), `${hi}: ${t.join(',')}`).toBe(true);
      expect(t[t.length - 1]).toBeGreaterThanOrEqual(hi);
    }
  });

  it('a log axis ticks 1-2-5 per decade', () => {
    expect(logTicks(40, 60_000)).toEqual([50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000]);
  });
});

describe('a load result and its page', () => {
  it('record the machine, draw the last partial second as a rate, and say the built-in server is no real capacity', async () => {
    const run = await load('exchange', { duration: '1500ms', connections: 2 });
    const { machine, timeline } = run.result;
    expect(machine).toMatchObject({ cores: cpus().length, node: process.version });
    expect(machine?.cpu).toBe(cpus()[0]!.model.trim().replace(/\s+/g, ' '));
    expect(machine?.loadBefore).toHaveLength(3);
    expect(machine?.loadAfter).toHaveLength(3);
    expect(run.output).toMatch(/machine: .*core\(s\), Node v\d+/);
    expect(run.output).toContain('no capacity of any real system');

    // 1.5 s measured: two seconds, the last covering about half a second (more if answers drained late).
    expect(timeline).toHaveLength(2);
    expect(timeline[0]!.spanS).toBe(1);
    expect(timeline[1]!.spanS).toBeGreaterThan(0.4);
    expect(timeline[1]!.spanS).toBeLessThan(1);
    const points = secondPoints(run.result);
    expect(points[1]!.x).toBeCloseTo(1 + timeline[1]!.spanS! / 2, 6);
    expect(points[1]!.perS).toBeCloseTo(timeline[1]!.responses / timeline[1]!.spanS!, 6);

    const html = readFileSync(run.htmlFile, 'utf8');
    expect(html).toContain('no capacity of any real system');
    expect(html).toMatch(/<th>machine<\/th><td>[^<]*core\(s\), Node v/);
    // As wide as the page: scaled by CSS, no fixed pixel width.
    expect(html).toContain('svg{width:100%;height:auto');
    expect(html).not.toMatch(/<svg[^>]* width="\d+"/);
  });
});
