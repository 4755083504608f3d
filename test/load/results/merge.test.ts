/**
 * Shards merge exactly: two real shard runs (--shard 1/2 and 2/2, at the same time), merged with
 * `tack load merge`, give the counts of one combined run (every counter the sum of the shards'),
 * and the merged histogram holds every answer of both.
 */
import { join } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCommand } from '../../../src/cli/commands/load.js';
import { decode, sumEncoded } from '../../../src/load/engine/histograms.js';
import type { Counts, EndpointResult, LoadResult } from '../../../src/load/types.js';
import { dir, load, options } from '../helpers.js';

function total(r: LoadResult): number {
  const h = sumEncoded(Object.values(r.latency.byClass));
  const n = h.totalCount;
  h.destroy();
  return n;
}

describe('tack load merge', () => {
  it('two shard results merge into the counts of one combined run', async () => {
    const [a, b] = await Promise.all([
      load('exchange', { duration: '1500ms', connections: 5, shard: '1/2', threshold: ['errors==0'], sut: 'reference', sutVcpus: '2' }),
      load('exchange', { duration: '1500ms', connections: 5, shard: '2/2', threshold: ['errors==0'], sut: 'reference', sutVcpus: '2' }),
    ]);
    expect([a.exitCode, b.exitCode]).toEqual([0, 0]);
    expect([a.result.settings.connections, b.result.settings.connections]).toEqual([3, 2]);

    const out = join(dir, 'merged.json');
    let output = '';
    const code = await loadCommand('merge', [a.jsonFile, b.jsonFile], options({ out }), { write: (s) => (output += s), progress: () => undefined });
    expect(code).toBe(0);
    expect(output).toContain('merged from 2 result(s)');
    const merged = JSON.parse(readFileSync(out, 'utf8')) as LoadResult;
    // The system under test is the shards' own: carried over, and shown.
    expect(merged.sut).toEqual({ name: 'reference', vcpus: 2 });
    expect(output).toContain('system under test: reference, 2 vCPU(s)');

    for (const phase of ['warmup', 'measured'] as const) {
      const x: Counts = a.result[phase];
      const y: Counts = b.result[phase];
      const m: Counts = merged[phase];
      for (const key of ['responses', 'ok', 'expected', 'non2xx', 'malformed', 'broken', 'lost', 'errors', 'timeouts', 'rotations'] as const) {
        expect(m[key], `${phase}.${key}`).toBe(x[key] + y[key]);
      }
      for (const key of ['raceProbes', 'forks'] as const) expect(m[key], `${phase}.${key}`).toBe((x[key] ?? 0) + (y[key] ?? 0));
      for (const [status, n] of Object.entries(m.byStatus)) expect(n).toBe((x.byStatus[status] ?? 0) + (y.byStatus[status] ?? 0));
    }
    expect(merged.settings.connections).toBe(5);
    // Each shard's race probe: the probing chains added, the policy seen, the forks listed together.
    expect(merged.race).toMatchObject({ chains: a.result.race!.chains + b.result.race!.chains, policy: a.result.race!.policy, forks: [] });
    expect(merged.mergedFrom.map((f) => f.shard)).toEqual(['1/2', '2/2']);

    // Every answer of both shards is in the merged histogram, by class and per second.
    expect(total(merged)).toBe(total(a.result) + total(b.result));
    expect(total(merged)).toBe(merged.measured.responses);
    const twoXx = decode(merged.latency.byClass['2xx']!);
    expect(twoXx.totalCount).toBe(merged.measured.byStatus['200']);
    twoXx.destroy();
    const perSecond = merged.timeline.reduce((n, s) => n + s.responses, 0);
    expect(perSecond).toBe(a.result.timeline.reduce((n, s) => n + s.responses, 0) + b.result.timeline.reduce((n, s) => n + s.responses, 0));
    const timelineHist = sumEncoded(merged.timeline.map((s) => s.latency));
    expect(timelineHist.totalCount).toBe(merged.measured.responses);
    timelineHist.destroy();
    expect(merged.thresholds.map((t) => [t.expr, t.ok])).toEqual([['errors==0', true]]);

    // Per request kind too: counts added, histograms merged exactly.
    const [ea, eb, em] = [a.result, b.result, merged].map((r) => r.endpoints!.exchange!) as [EndpointResult, EndpointResult, EndpointResult];
    expect(em.measured.responses).toBe(ea.measured.responses + eb.measured.responses);
    expect(em.measured.rotations).toBe(ea.measured.rotations + eb.measured.rotations);
    const kindHist = sumEncoded(Object.values(em.latency.byClass));
    expect(kindHist.totalCount).toBe(merged.measured.responses);
    kindHist.destroy();
    // The generator of each shard is kept, and the merged result carries the worst.
    expect(merged.mergedFrom.map((f) => f.generator?.busyPct)).toEqual([a.result.generator?.busyPct, b.result.generator?.busyPct]);
    expect(merged.generator?.busyPct).toBe(Math.max(a.result.generator!.busyPct, b.result.generator!.busyPct));
  });

  it('refuses shards that loaded different targets', async () => {
    const a = await load('partner-mint', { duration: '500ms', connections: 1 });
    const other = join(dir, 'other-target.json');
    const result = JSON.parse(readFileSync(a.jsonFile, 'utf8')) as LoadResult;
    writeFileSync(other, JSON.stringify({ ...result, target: { ...result.target, builtIn: false, baseUrl: 'http://other.localhost:1' } }));
    await expect(loadCommand('merge', [a.jsonFile, other], options(), { write: () => undefined, progress: () => undefined })).rejects.toMatchObject({
      code: 'TACK_ERR_USAGE',
      message: expect.stringContaining('different targets'),
    });
  });

  it('refuses results of different profiles', async () => {
    const a = await load('partner-mint', { duration: '500ms', connections: 1 });
    const b = await load('exchange', { duration: '500ms', connections: 1 });
    await expect(loadCommand('merge', [a.jsonFile, b.jsonFile], options(), { write: () => undefined, progress: () => undefined })).rejects.toMatchObject({
      code: 'TACK_ERR_USAGE',
    });
  });
});
