/**
 * Reports people read: charts with round ticks at page width, a time axis that ends with the run,
 * the last partial second drawn as a rate (not a collapse) and printed as it was, one p99 in the
 * console, the charts and the summary, the machine recorded in every result, and a plain word when
 * the target was the built-in reference server.
 */
import { cpus } from 'node:os';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lineChart, logTicks, niceTicks } from '../../../src/load/report/charts.js';
import { decode, sumEncoded } from '../../../src/load/engine/histograms.js';
import { secondPoints } from '../../../src/load/report/html.js';
import { load } from '../helpers.js';

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

  it('a time axis ends where the run ended: no tick past it', () => {
    const svg = lineChart({
      title: 't',
      series: [{ name: 'a', colour: '#000', points: [[0.5, 1] as const, [1.25, 2] as const] }],
      xFormat: (v) => `${v}s`,
      yFormat: String,
      xLabel: 'time',
      xFromZero: true,
      xEnd: 1.5,
    });
    const ticks = [...svg.matchAll(/>([\d.]+)s<\/text>/g)].map((m) => Number(m[1]));
    expect(ticks[0]).toBe(0);
    expect(Math.max(...ticks)).toBeLessThanOrEqual(1.5);
    // 1.5 s is the plot's right edge (x 980), not a rounder 1.6 s: the point at 1.25 s sits at 72 + 908 × 1.25 / 1.5.
    expect(svg).toContain('L828.7,');
  });
});

describe('a load result and its page', () => {
  it('record the machine, draw the last partial second as a rate, and say the built-in server is no real capacity', async () => {
    const run = await load('exchange', { duration: '1500ms', connections: 2, rate: '300' });
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
    // The progress shows that last half second too, as a rate.
    const lines = run.progress.trim().split('\n');
    expect(lines.at(-1)).toMatch(/^ +1\.\ds +[\d ]+ req\/s \(last 0\.\d s\) +p99 /);

    // One p99: the per-second histograms the charts and the progress lines use are the same measure
    // as the summary's (here, at a fixed rate, coordinated-omission corrected), so they add up to it.
    const perSecond = sumEncoded(timeline.map((s) => s.latency));
    const whole = decode(run.result.latency.corrected!);
    expect(perSecond.totalCount).toBe(whole.totalCount);
    expect(perSecond.getValueAtPercentile(99)).toBe(whole.getValueAtPercentile(99));
    perSecond.destroy();
    whole.destroy();
    expect(run.output).toContain('latency: from when each request fell due (coordinated-omission corrected), over the measured phase');

    const html = readFileSync(run.htmlFile, 'utf8');
    expect(html).toContain('Latency percentiles per second (all statuses, from when each request fell due (coordinated-omission corrected))');
    expect(html).toContain('>p99 of the run</text>');
    expect(html).toContain('no capacity of any real system');
    expect(html).toMatch(/<th>machine<\/th><td>[^<]*core\(s\), Node v/);
    // As wide as the page: scaled by CSS, no fixed pixel width.
    expect(html).toContain('svg{width:100%;height:auto');
    expect(html).not.toMatch(/<svg[^>]* width="\d+"/);
  });
});
