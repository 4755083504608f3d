/**
 * Stop early (`:abort`): judged once a second on the measured phase so far, after the grace, only
 * with the answers the sample rule asks for, and only at a sustained breach; a real run stops,
 * writes its reports and fails with exit 4 and the reason.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../src/harness/errors.js';
import { Recorder } from '../../../src/load/engine/recorder.js';
import { EarlyStop, SUSTAIN_CHECKS } from '../../../src/load/results/early-stop.js';
import { parseThreshold } from '../../../src/load/results/thresholds.js';
import { load } from '../helpers.js';

const specs = (...xs: string[]) => xs.map((e) => ({ spec: parseThreshold(e), source: 'cli' as const }));

/** A recorder whose measured phase starts at 0, fed `n` answers of `ms` each at time `at`. */
function answers(rec: Recorder, n: number, ms: number, at: number, status = 200): void {
  const chain = { label: 'chain 1', rotations: 0 };
  for (let i = 0; i < n; i++) {
    rec.response(status, ms, at, undefined, 'exchange');
    rec.outcome(status === 200 ? { kind: 'ok' } : { kind: 'non2xx' }, at, chain, status, 'exchange');
  }
}

describe('EarlyStop', () => {
  it('stops at the third check in a row that finds the threshold breached, after the grace', () => {
    const rec = new Recorder({ startedAt: 0, warmupMs: 0, durationMs: 60_000, fixedRate: false });
    const stop = new EarlyStop(specs('p50<10ms:abort=2s', 'p99<1s'), true);
    answers(rec, 100, 50, 500);
    // Within the grace: not judged.
    expect(stop.check(rec, 1000)).toBeUndefined();
    expect(stop.check(rec, 2000)).toBeUndefined();
    expect(stop.check(rec, 3000)).toBeUndefined();
    expect(SUSTAIN_CHECKS).toBe(3);
    const why = stop.check(rec, 4000);
    expect(why).toMatch(
      new RegExp(
        '^stopped early: threshold p50<10ms:abort=2s breached at 3 checks in a row, one a second \\(actual 50\\.\\d+ms\\), ' +
          '4\\.0 s into the measured phase, after its 2s grace$',
      ),
    );
    rec.destroy();
  });

  it('one bad second decides nothing: a breach that recovers starts the count again', () => {
    const rec = new Recorder({ startedAt: 0, warmupMs: 0, durationMs: 60_000, fixedRate: false });
    const stop = new EarlyStop(specs('errors==0:abort=0s'), true);
    answers(rec, 10, 1, 100, 500);
    expect(stop.check(rec, 1000)).toBeUndefined();
    expect(stop.check(rec, 2000)).toBeUndefined();
    expect(stop.check(rec, 3000)).toMatch(/errors==0:abort=0s breached .* \(actual 10\)/);
    rec.destroy();
    const rec2 = new Recorder({ startedAt: 0, warmupMs: 0, durationMs: 60_000, fixedRate: false });
    const p = new EarlyStop(specs('p50<10ms:abort=0s'), true);
    answers(rec2, 40, 50, 100);
    expect(p.check(rec2, 1000)).toBeUndefined();
    expect(p.check(rec2, 2000)).toBeUndefined();
    // The slow answers are outnumbered: the p50 holds again, the streak ends.
    answers(rec2, 200, 1, 2500);
    expect(p.check(rec2, 3000)).toBeUndefined();
    expect(p.check(rec2, 4000)).toBeUndefined();
    rec2.destroy();
  });

  it('a percentile is not judged on fewer answers than the sample rule asks for', () => {
    const rec = new Recorder({ startedAt: 0, warmupMs: 0, durationMs: 60_000, fixedRate: false });
    const stop = new EarlyStop(specs('p99<10ms:abort=0s'), true);
    answers(rec, 500, 50, 100);
    for (const at of [1000, 2000, 3000, 4000]) expect(stop.check(rec, at)).toBeUndefined();
    rec.destroy();
  });

  it('nothing to watch without :abort', () => {
    expect(new EarlyStop(specs('p99<1s', 'errors==0'), true).active).toBe(false);
  });
});

describe('tack load with an :abort threshold', () => {
  it('ends the run at the sustained breach, writes the reports, exit 4 with the reason', async () => {
    const started = performance.now();
    const run = await load('exchange', { duration: '30s', connections: 2, threshold: ['rps<1:abort=0s', 'errors==0'] });
    expect(run.exitCode, run.output).toBe(EXIT.threshold);
    expect(run.result.stoppedEarly?.reason).toMatch(/^stopped early: threshold rps<1:abort=0s breached at 3 checks in a row/);
    expect(run.result.verdict.reasons).toContain(run.result.stoppedEarly!.reason);
    expect(run.result.measuredS).toBeLessThan(15);
    expect(run.output).toMatch(/⏹ stopped early: .*; the figures above cover the part that ran/);
    expect(existsSync(run.htmlFile)).toBe(true);
    expect(readFileSync(run.htmlFile, 'utf8')).toContain('<th>stopped early</th><td>stopped early: threshold rps&lt;1:abort=0s breached');
    expect(performance.now() - started).toBeLessThan(30_000);
  });
});
