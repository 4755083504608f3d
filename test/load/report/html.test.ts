/**
 * Reports people read: the last partial second drawn as a rate (not a collapse) and printed as it
 * was, one p99 in the console, the charts and the summary, the machine recorded in every result, and
 * a plain word when the target was the built-in reference server. The charts' axes: charts.test.ts.
 */
import { cpus } from 'node:os';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decode, sumEncoded } from '../../../src/load/engine/histograms.js';
import { secondPoints } from '../../../src/load/report/html.js';
import { load } from '../helpers.js';

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
