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
import { githubAnnotations } from '../../src/cli/commands/annotate.js';
import { baselineWriteCommand } from '../../src/cli/commands/baseline.js';
import { runInProcess, startTarget, type Target } from '../reporters/helpers.js';
import type { ResultsDocument } from '../../src/reporters/results-schema.js';

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

    // The same rule failing at another check is a new failure, and the entry is reported as stale.
    expect(written.expected[0]).toMatchObject({ check: expect.stringMatching(/revoke/) });
    const elsewhere = await start(['revoke-answers-with-body']);
    const differently = await runInProcess(elsewhere.env, { only: ONLY, baseline: file });
    expect(differently.code).toBe(1);
    expect(results(differently.runDir).baseline).toMatchObject({ expected: [], newFailures: ['SIGNIN-REVOKE'] });
    expect(differently.out).toMatch(/baseline: stale entry: SIGNIN-REVOKE is in the baseline as failed at ".*revoke.*", but is now failed at "/);
  });

  it('--require-all: a MUST rule not checked fails the run and says so in every report; a baseline entry accepts it, with its reason', async () => {
    const reports = mkdtempSync(join(tmpdir(), 'tack-baseline-skip-'));
    const file = join(reports, 'baseline.json');
    const target = await start([]);
    const env = { ...target.env, TACK_BROWSER: '/nonexistent/tack-test-browser' };
    const only = ['TOKEN-PAGE-MASKED', 'PARTNER-BAD-CREDENTIALS'];

    const red = await runInProcess(env, { only, reports, requireAll: true });
    expect(red.code).toBe(1);
    const summary = readFileSync(join(red.runDir, 'summary.md'), 'utf8');
    expect(summary).toContain('1 rule not met (1 MUST rule not checked, --require-all: TOKEN-PAGE-MASKED)');
    expect(summary).toMatch(/- – `TOKEN-PAGE-MASKED` MUST not checked \(--require-all\): needs a browser/);
    expect(readFileSync(join(red.runDir, 'junit.xml'), 'utf8')).toMatch(/<failure message="not checked \(--require-all\): needs a browser[^"]*" type="MUST"/);
    expect(githubAnnotations(join(red.runDir, 'results.json'))).toMatch(
      /^::error title=TOKEN-PAGE-MASKED \(§[^)]*\)::MUST rule not checked \(--require-all\): needs a browser/,
    );

    expect(baselineWriteCommand({ out: file, reports }, () => undefined)).toBe(0);
    const written = JSON.parse(readFileSync(file, 'utf8')) as { expected: { rule: string; status: string; check: string; reason: string }[] };
    expect(written.expected).toEqual([
      { rule: 'TOKEN-PAGE-MASKED', status: 'skipped', check: expect.stringMatching(/^needs a browser/), reason: expect.any(String) },
    ]);
    written.expected[0]!.reason = 'this runner has no browser; the page is certified on the nightly job';
    writeFileSync(file, JSON.stringify(written));

    const green = await runInProcess(env, { only, requireAll: true, baseline: file });
    expect(green.code).toBe(0);
    const doc = results(green.runDir);
    expect(doc.baseline).toMatchObject({ accepted: ['TOKEN-PAGE-MASKED'], newFailures: [] });
    expect(doc.rules.find((r) => r.id === 'TOKEN-PAGE-MASKED')).toMatchObject({
      status: 'skipped',
      baseline: 'accepted',
      baselineReason: written.expected[0]!.reason,
    });
    expect(readFileSync(join(green.runDir, 'summary.md'), 'utf8')).toContain('not checked, accepted: this runner has no browser');
    expect(readFileSync(join(green.runDir, 'junit.xml'), 'utf8')).toContain('<skipped message="not checked, accepted (baseline): this runner has no browser');
    expect(readFileSync(join(green.runDir, 'report.html'), 'utf8')).toContain('accepted (baseline): this runner has no browser');
    expect(githubAnnotations(join(green.runDir, 'results.json'))).toBe('');

    // Skipped for another reason: the entry is stale, and the skip fails --require-all again.
    const other = await runInProcess({ ...env, TACK_BROWSER: '/elsewhere/tack-test-browser' }, { only, requireAll: true, baseline: file });
    expect(other.code).toBe(1);
    expect(results(other.runDir).baseline).toMatchObject({ accepted: [], newFailures: ['TOKEN-PAGE-MASKED'] });
    expect(other.out).toMatch(/stale entry: TOKEN-PAGE-MASKED is in the baseline as skipped at "needs a browser: TACK_BROWSER=\/nonexistent/);
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
