/**
 * Generator health: every load result says how the load generator fared, and a generator that was
 * the bottleneck says so in the console, the JSON and the HTML (the figures are then a floor). The
 * rule is pinned on figures; one short real run has its event loop held by a busy loop.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { judgeHealth, reasonsText, saturationWarning, secondSaturated, worstHealth } from '../../../src/load/engine/generator.js';
import { saturatedRanges } from '../../../src/load/report/html.js';
import type { LoadResult, Second } from '../../../src/load/types.js';
import { load, type Ran } from '../helpers.js';

const calm = { cpuPct: 40, busyPct: 45, loopDelayUs: { p50: 100, p99: 2000, max: 9000 }, late: { slots: 0, answers: 10_000, seconds: 5 } };

describe('when the generator counts as saturated', () => {
  it('not when its loop is half idle, its timers on time and no slot late', () => {
    expect(judgeHealth(calm)).toMatchObject({ saturated: false, reasons: [], lateSlots: 0, lateSlotsPerS: 0 });
    expect(judgeHealth({ ...calm, late: null })).toMatchObject({ saturated: false, lateSlots: null, lateSlotsPerS: null });
  });

  it.each([
    [{ busyPct: 93 }, /event loop was busy 93% of the time/],
    [{ loopDelayUs: { p50: 1000, p99: 45_000, max: 80_000 } }, /timers fired late: event-loop delay p99 45.0ms/],
    [{ late: { slots: 150, answers: 10_000, seconds: 5 } }, /150 slot\(s\) went out 10 ms or more late/],
  ])('%j', (change, why) => {
    const h = judgeHealth({ ...calm, ...change });
    expect(h.saturated).toBe(true);
    expect(h.reasons.join()).toMatch(why);
  });

  it('per second, for the marks on the charts; adjacent seconds make one band', () => {
    const second = (s: number, extra: Partial<Second>): Second => ({ s, spanS: 1, responses: 100, non2xx: 0, errors: 0, timeouts: 0, latency: '', ...extra });
    const timeline = [second(0, { busyPct: 40 }), second(1, { busyPct: 95 }), second(2, { loopDelayUs: 30_000 }), second(3, { lateSlots: 0 })];
    expect(timeline.map(secondSaturated)).toEqual([false, true, true, false]);
    expect(saturatedRanges({ timeline } as unknown as LoadResult)).toEqual([{ from: 1, to: 3 }]);
  });

  it('the warning names a busy machine as a cause', () => {
    const h = judgeHealth({ ...calm, busyPct: 95 });
    const machine = { cpu: 'x', cores: 2, node: 'v20', platform: 'linux', loadBefore: [1.2, 1, 1], loadAfter: [6.4, 3, 2] };
    expect(saturationWarning(h, false, machine)).toContain('The machine was busy: load average 6.4 on 2 core(s)');
    expect(saturationWarning(h, false, { ...machine, loadAfter: [1.5, 1, 1] })).not.toContain('machine was busy');
  });

  it('the worst of shards or steps, each reason with where it came from', () => {
    const w = worstHealth([
      { label: 'shard 1/2', health: judgeHealth(calm) },
      { label: 'shard 2/2', health: judgeHealth({ ...calm, busyPct: 99 }) },
    ]);
    expect(w).toMatchObject({ saturated: true, busyPct: 99, lateSlots: 0 });
    expect(w?.reasons).toEqual(['shard 2/2: its event loop was busy 99% of the time (≥ 90%)']);
    const many = { ...w!, reasons: ['a', 'b', 'c', 'd', 'e'] };
    expect(reasonsText(many)).toBe('a; b; c; and 2 more (see the JSON)');
  });
});

describe('a run whose generator is held by a busy loop', () => {
  it('says it was saturated in the console, the JSON and the HTML, and still judges the target alone', async () => {
    // Once the load starts, this process's event loop is held 80 ms out of every ~90: the generator, not the target, is the limit.
    let spin: NodeJS.Timeout | undefined;
    const busy = () => {
      spin ??= setInterval(() => {
        const end = performance.now() + 80;
        while (performance.now() < end) {
          // busy
        }
      }, 10);
    };
    let run: Ran;
    try {
      run = await load('exchange', { duration: '1s', connections: 2, rate: '200', threshold: ['errors==0'] }, {}, (text) => {
        if (text.includes('load goes to')) busy();
      });
    } finally {
      clearInterval(spin);
    }
    const g = run.result.generator!;
    expect(g.saturated, JSON.stringify(g)).toBe(true);
    expect(g.reasons.length).toBeGreaterThan(0);
    // Counted in the open model (not null); how many depends on whether a connection was free when a
    // slot fell due, which the machine's speed decides (the built-in server shares this process).
    expect(g.lateSlots).not.toBeNull();
    expect(run.result.timeline.some((s) => secondSaturated(s))).toBe(true);
    expect(run.output).toMatch(/load generator: CPU \d+% of one core, event loop busy \d+%, loop delay p99 .*, late slots [\d.]+\/s/);
    expect(run.output).toContain('⚠ the load generator was saturated: ');
    expect(run.output).toContain("These figures are a floor of the target's capacity");
    const html = readFileSync(run.htmlFile, 'utf8');
    expect(html).toMatch(/<p class="warn">⚠ the load generator was saturated: /);
    expect(html).toContain('<th>load generator</th>');
    // The saturated seconds are shaded on the time charts, with their legend.
    expect(html).toMatch(/<rect [^>]*fill="#c33" opacity="0.18"\/>/);
    expect(html).toContain('>load generator saturated</text>');
    // A saturated generator is said, not failed: the verdict is the target's.
    expect(run.exitCode, run.output).toBe(0);
  });
});
