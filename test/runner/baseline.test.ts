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
import { applyBaseline, type BaselineEntry, baselineFrom } from '../../src/runner/baseline.js';
import type { RunResult } from '../../src/runner/index.js';
import type { CheckResult, RuleResult } from '../../src/runner/results.js';

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
    expect(written.expected[0]).toMatchObject({ checks: expect.arrayContaining([expect.stringMatching(/^sign-in\/revoke\/SIGNIN-REVOKE\/\d+$/)]) });
    const elsewhere = await start(['revoke-answers-with-body']);
    const differently = await runInProcess(elsewhere.env, { only: ONLY, baseline: file });
    expect(differently.code).toBe(1);
    expect(results(differently.runDir).baseline).toMatchObject({ expected: [], newFailures: ['SIGNIN-REVOKE'] });
    expect(differently.out).toMatch(/baseline: stale entry: SIGNIN-REVOKE is in the baseline as failed at .*\/SIGNIN-REVOKE\/\d+, but is now failed at \S+/);
  });

  it('a second, different failure of a waived rule fails the gate (a new 5xx on another endpoint)', async () => {
    const reports = mkdtempSync(join(tmpdir(), 'tack-baseline-second-'));
    const file = join(reports, 'baseline.json');
    const only = ['PARTNER-NO-SERVER-ERROR'];
    // Known: a 401 for a body that is not JSON. It comes before the refresh sweep, so it stays the rule's first failed check below.
    const known = ['partner-content-type-401'];
    const first = await runInProcess((await start(known)).env, { only, reports });
    expect(first.code).toBe(1);
    expect(baselineWriteCommand({ out: file, reports }, () => undefined)).toBe(0);
    const written = JSON.parse(readFileSync(file, 'utf8')) as { expected: { rule: string; checks: string[] }[] };
    // Every failed check, by id (the test, the rule, its place or key), never by its title.
    expect(written.expected[0]!.checks.length).toBeGreaterThan(0);
    for (const id of written.expected[0]!.checks) expect(id).toMatch(/^[a-z-]+\/[a-z-]+\/PARTNER-NO-SERVER-ERROR\/\S+$/);

    const same = await runInProcess((await start(known)).env, { only, baseline: file });
    expect(same.code).toBe(0);

    // A new 500 of the refresh call, with the known failure still there: a new failure, not waived.
    const more = await runInProcess((await start([...known, 'partner-refresh-unknown-token-500'])).env, { only, baseline: file });
    expect(more.code).toBe(1);
    expect(results(more.runDir).baseline).toMatchObject({ expected: [], newFailures: ['PARTNER-NO-SERVER-ERROR'] });
    expect(more.out).toMatch(
      /stale entry: PARTNER-NO-SERVER-ERROR is in the baseline as failed at .*, but is now failed at .*run-wide\/every-answer\/PARTNER-NO-SERVER-ERROR\/POST /,
    );
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
    const written = JSON.parse(readFileSync(file, 'utf8')) as { expected: { rule: string; status: string; checks: string[]; reason: string }[] };
    // The skip by id: the need unmet of the test that could not run, not the words of its reason.
    expect(written.expected).toEqual([
      { rule: 'TOKEN-PAGE-MASKED', status: 'skipped', checks: [expect.stringMatching(/^token-page\/\S+\/needs\/browser$/)], reason: expect.any(String) },
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

    // The same need unmet, its words changed (another path): still the accepted skip.
    const elsewhere = await runInProcess({ ...env, TACK_BROWSER: '/elsewhere/tack-test-browser' }, { only, requireAll: true, baseline: file });
    expect(elsewhere.code).toBe(0);

    // Skipped for another reason too (no test hook: no user to sign in with): the entry is stale, and the skip fails --require-all again.
    const noHook: Record<string, string> = { ...env };
    delete noHook['TACK_HOOK_URL'];
    delete noHook['TACK_HOOK_TOKEN'];
    const other = await runInProcess(noHook, { only, requireAll: true, baseline: file });
    expect(other.code).toBe(1);
    expect(results(other.runDir).baseline).toMatchObject({ accepted: [], newFailures: ['TOKEN-PAGE-MASKED'] });
    expect(other.out).toMatch(
      /stale entry: TOKEN-PAGE-MASKED is in the baseline as skipped at \S+\/needs\/browser, but is now skipped at .*needs\/user-password/,
    );
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

/** A failed MUST rule with these checks (id and title), as the runner finishes it. */
function failing(checks: readonly { id?: string; title: string; ok?: boolean }[]): RuleResult {
  const results = checks.map(
    (c): CheckResult => ({
      ...(c.id ? { id: c.id } : {}),
      rule: 'SIGNIN-REVOKE',
      test: 'sign-in/revoke',
      title: c.title,
      ok: c.ok ?? false,
      expected: 'e',
      actual: 'a',
      exchanges: [],
    }),
  );
  return {
    id: 'SIGNIN-REVOKE',
    level: 'MUST',
    area: 'sign-in',
    section: '§4.2',
    text: '',
    status: 'failed',
    reason: 'r',
    durationMs: 0,
    checks: results,
    observations: [],
    unverified: [],
    cutShort: [],
    tests: ['sign-in/revoke'],
  };
}

const POLICY = { strict: false, requireAll: false };
const applied = (entries: BaselineEntry[], rule: RuleResult) =>
  applyBaseline({ file: 'b.json', entries }, { rules: [rule], hookProblem: undefined } as unknown as RunResult, POLICY);
const entry = (more: Partial<BaselineEntry>): BaselineEntry => ({ rule: 'SIGNIN-REVOKE', status: 'failed', reason: 'known', ...more });

describe('what a baseline entry waives', () => {
  const A = { id: 'sign-in/revoke/SIGNIN-REVOKE/2', title: 'revoke an exchanged token: body' };
  const B = { id: 'sign-in/revoke/SIGNIN-REVOKE/4', title: 'exchange of the token after revoke' };

  it('baseline write names every failed check by id, not only the first', () => {
    const written = baselineFrom({ rules: [failing([A, { ...B, ok: true }, { id: 'sign-in/revoke/SIGNIN-REVOKE/5', title: 'x' }])] });
    expect(written.expected).toEqual([entry({ checks: [A.id, 'sign-in/revoke/SIGNIN-REVOKE/5'], reason: 'r' })]);
  });

  it('a second, different failed check of a waived rule is a new failure', () => {
    const result = applied([entry({ checks: [A.id] })], failing([A, B]));
    expect([result.exitCode, result.summary.newFailures]).toEqual([1, ['SIGNIN-REVOKE']]);
    expect(result.summary.notes.join('\n')).toContain(`is now failed at ${A.id}, ${B.id}`);
  });

  it('a reworded check title keeps its waiver: the id is matched, never the title', () => {
    const result = applied([entry({ checks: [A.id] })], failing([{ ...A, title: 'revoking a token: the answer has no body' }]));
    expect([result.exitCode, result.summary.expected]).toEqual([0, ['SIGNIN-REVOKE']]);
  });

  it('an entry of an older tack (one check by title) waives its failure as it was, and no second failure', () => {
    const old = entry({ check: A.title });
    expect(applied([old], failing([{ title: A.title }])).exitCode).toBe(0);
    expect(applied([old], failing([A])).exitCode).toBe(0);
    expect(applied([old], failing([A, B])).summary.newFailures).toEqual(['SIGNIN-REVOKE']);
  });

  it('an entry naming no check waives every failure of the rule, and every run says so', () => {
    const result = applied([entry({})], failing([A, B]));
    expect(result.exitCode).toBe(0);
    expect(result.summary.notes.join('\n')).toMatch(/entry for SIGNIN-REVOKE names no check: it waives the rule whenever it is failed, a new deviation too/);
  });
});
