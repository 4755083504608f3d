/**
 * A baseline round-trip against the reference server: a faulty run, `tack baseline write` from
 * it, the same fault again with the baseline (exit 0), the fault fixed (reported as now passing),
 * a different fault (a new failure fails), and a baseline that cannot be read (exit 2, reports
 * still written).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { baselineWriteCommand } from '../../src/cli/commands/baseline.js';
import type { ResultsDocument } from '../../src/reporters/json.js';
import { runInProcess, startTarget, type Target } from './helpers.js';

const ONLY = ['SIGNIN-REVOKE', 'PARTNER-HEADERS-REQUIRED', 'PARTNER-BAD-CREDENTIALS'];

function results(runDir: string): ResultsDocument {
  return JSON.parse(readFileSync(join(runDir, 'results.json'), 'utf8')) as ResultsDocument;
}

describe('baseline of expected failures', () => {
  const targets: Target[] = [];
  const start = async (faults: string[]) => {
    const t = await startTarget(faults);
    targets.push(t);
    return t;
  };
  afterEach(async () => {
    for (const t of targets.splice(0)) await t.server.close();
  });

  it('write from a faulty run, re-run with it (exit 0), fix the fault (now passing), break another rule (fails)', async () => {
    const reports = mkdtempSync(join(tmpdir(), 'tack-baseline-'));
    const file = join(reports, 'baseline.json');
    const faulty = await start(['revoke-no-op']);

    const first = await runInProcess(faulty.env, { only: ONLY, reports });
    expect(first.code).toBe(1);
    let printed = '';
    // No --from: the latest run under --reports.
    expect(baselineWriteCommand({ out: file, reports }, (s) => (printed += s))).toBe(0);
    expect(printed).toContain(`Wrote ${file}: 1 expected failure(s)`);
    const written = JSON.parse(readFileSync(file, 'utf8')) as { schema: string; expected: { rule: string; status: string; reason: string }[] };
    expect(written.schema).toBe('tack-baseline/1');
    expect(written.expected.map((e) => [e.rule, e.status])).toEqual([['SIGNIN-REVOKE', 'failed']]);
    expect(written.expected[0]!.reason).toBe(results(first.runDir).rules.find((r) => r.id === 'SIGNIN-REVOKE')!.reason);

    const known = await runInProcess(faulty.env, { only: ONLY, baseline: file });
    expect(known.code).toBe(0);
    const knownDoc = results(known.runDir);
    expect(knownDoc.run.exitCode).toBe(0);
    expect(knownDoc.baseline).toMatchObject({ expected: ['SIGNIN-REVOKE'], newFailures: [], nowPassing: [] });
    expect(knownDoc.rules.find((r) => r.id === 'SIGNIN-REVOKE')).toMatchObject({ status: 'failed', baseline: 'expected' });
    expect(readFileSync(join(known.runDir, 'junit.xml'), 'utf8')).toMatch(/<skipped message="expected failure \(baseline\): failed: /);
    expect(readFileSync(join(known.runDir, 'summary.md'), 'utf8')).toContain('## tack: PASSED');

    const fixed = await start([]);
    const passing = await runInProcess(fixed.env, { only: ONLY, baseline: file });
    expect(passing.code).toBe(0);
    expect(passing.out).toContain(`baseline: now passing: SIGNIN-REVOKE: remove it from the baseline ${file}`);
    expect(results(passing.runDir).baseline?.nowPassing).toEqual(['SIGNIN-REVOKE']);
    expect(readFileSync(join(passing.runDir, 'report.html'), 'utf8')).toContain('now passing: remove from baseline');

    const other = await start(['revoke-no-op', 'missing-partner-headers-accepted']);
    const broken = await runInProcess(other.env, { only: ONLY, baseline: file });
    expect(broken.code).toBe(1);
    expect(results(broken.runDir).baseline).toMatchObject({ expected: ['SIGNIN-REVOKE'], newFailures: ['PARTNER-HEADERS-REQUIRED'] });
  });

  it('a baseline that cannot be read is a configuration error, and the reports are still written', async () => {
    const reports = mkdtempSync(join(tmpdir(), 'tack-baseline-bad-'));
    const file = join(reports, 'bad.json');
    writeFileSync(file, JSON.stringify({ expected: [{ rule: 'SIGNIN-REVOKE', status: 'failed' }] }));
    const target = await start([]);
    const run = await runInProcess(target.env, { only: ['PARTNER-BAD-CREDENTIALS'], reports, baseline: file });
    expect(run.code).toBe(2);
    expect(run.out).toMatch(/baseline: --baseline .*bad\.json is not a baseline: expected\.0\.reason/);
    expect(results(run.runDir).run.exitCode).toBe(2);
  });
});
