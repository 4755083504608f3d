/**
 * What a baseline entry matches, without a server: waivers by check id, every failed check matched,
 * entries of an older tack by title, entries naming nothing, accepted skips, stale entries, and the
 * exit code the run ends with. These run once per mutant of src/runner/baseline.ts
 * (vitest.mutation.config.ts); test/runner/baseline.test.ts proves the round-trip against the reference.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TackError } from '../../src/harness/errors.js';
import {
  applyBaseline,
  BASELINE_SCHEMA,
  baselineSummarySchema,
  type BaselineEntry,
  baselineFrom,
  deviationIds,
  deviationOf,
  readBaseline,
  writeBaseline,
} from '../../src/runner/baseline.js';
import type { ExitPolicy } from '../../src/runner/exit-policy.js';
import type { RunResult } from '../../src/runner/index.js';
import type { CheckResult, RuleResult } from '../../src/runner/results.js';

const A = { id: 'sign-in/revoke/SIGNIN-REVOKE/2', title: 'revoke an exchanged token: body' };
const B = { id: 'sign-in/revoke/SIGNIN-REVOKE/4', title: 'exchange of the token after revoke' };

type CheckSpec = { id?: string; title: string; ok?: boolean; inner?: string };

function check(c: CheckSpec): CheckResult {
  return {
    ...(c.id ? { id: c.id } : {}),
    rule: 'SIGNIN-REVOKE',
    test: 'sign-in/revoke',
    title: c.title,
    ok: c.ok ?? false,
    expected: 'e',
    actual: 'a',
    exchanges: [],
    ...(c.inner ? { replay: { seed: 1, counterexample: 'x', rule: c.inner } } : {}),
  };
}

/** A rule as the runner finishes it: SIGNIN-REVOKE, failed, MUST, unless told otherwise. */
function rule(more: Partial<Omit<RuleResult, 'checks'>> & { checks?: readonly CheckSpec[] } = {}): RuleResult {
  const { checks = [], ...rest } = more;
  return {
    id: 'SIGNIN-REVOKE',
    level: 'MUST',
    area: 'sign-in',
    section: '§4.2',
    text: '',
    status: 'failed',
    reason: 'the reason: in detail',
    durationMs: 0,
    observations: [],
    unverified: [],
    cutShort: [],
    tests: ['sign-in/revoke'],
    ...rest,
    checks: checks.map(check),
  };
}

const entry = (more: Partial<BaselineEntry> = {}): BaselineEntry => ({ rule: 'SIGNIN-REVOKE', status: 'failed', reason: 'known', ...more });
const LENIENT: ExitPolicy = { strict: false, requireAll: false };
const run = (rules: RuleResult[], hookProblem?: string) => ({ rules, hookProblem }) as unknown as RunResult;
const applied = (entries: BaselineEntry[], rules: RuleResult | RuleResult[], policy: ExitPolicy = LENIENT) =>
  applyBaseline({ file: 'b.json', entries }, run(Array.isArray(rules) ? rules : [rules]), policy);

describe('a waiver by check ids', () => {
  it('every failed check of the rule must be one the entry names', () => {
    expect(applied([entry({ checks: [A.id, B.id] })], rule({ checks: [A, B] })).summary.expected).toEqual(['SIGNIN-REVOKE']);
    expect(applied([entry({ checks: [A.id] })], rule({ checks: [A, B] })).summary.newFailures).toEqual(['SIGNIN-REVOKE']);
  });

  it('a check that holds is not waived nor needed: only the failed ones are matched', () => {
    expect(applied([entry({ checks: [A.id] })], rule({ checks: [A, { ...B, ok: true }] })).exitCode).toBe(0);
  });

  it('a failed check without an id matches no entry by ids', () => {
    const result = applied([entry({ checks: [A.id] })], rule({ checks: [A, { title: B.title }] }));
    expect(result.summary.newFailures).toEqual(['SIGNIN-REVOKE']);
  });

  it('an entry for another status does not match, even with the same ids', () => {
    const result = applied([entry({ status: 'warning', checks: [A.id] })], rule({ checks: [A] }));
    expect(result.summary.newFailures).toEqual(['SIGNIN-REVOKE']);
    expect(result.marks.get('SIGNIN-REVOKE')).toBe('new-failure');
  });

  it('an entry for another rule does not match', () => {
    const result = applied([entry({ rule: 'PARTNER-BAD-CREDENTIALS', checks: [A.id] })], rule({ checks: [A] }));
    expect(result.summary.newFailures).toEqual(['SIGNIN-REVOKE']);
  });

  it('a failed rule with no failed check left has no ids: an entry by ids does not match it', () => {
    expect(applied([entry({ checks: [A.id] })], rule({ checks: [] })).summary.newFailures).toEqual(['SIGNIN-REVOKE']);
  });

  it('the second of two entries for a rule matches when the first does not', () => {
    const both = [entry({ checks: [B.id], reason: 'first' }), entry({ checks: [A.id], reason: 'second' })];
    const result = applied(both, rule({ checks: [A] }));
    expect(result.summary.expected).toEqual(['SIGNIN-REVOKE']);
    expect(result.reasons.get('SIGNIN-REVOKE')).toBe('second');
    const reversed = applied([entry({ checks: [A.id], reason: 'first' }), entry({ checks: [B.id], reason: 'second' })], rule({ checks: [A] }));
    expect(reversed.reasons.get('SIGNIN-REVOKE')).toBe('first');
  });
});

describe('an entry of an older tack, by title', () => {
  it('matches while every failed check has its title, placeholders and spaces aside', () => {
    const old = entry({ check: '  revoke <api-token#3>   token ' });
    expect(applied([old], rule({ checks: [{ title: 'revoke <api-token#7> token' }] })).exitCode).toBe(0);
    expect(applied([old], rule({ checks: [{ title: 'revoke <api-token#7> token' }, { title: 'other' }] })).exitCode).toBe(1);
  });

  it("a property's title names the rule its failing step broke", () => {
    const old = entry({ check: 'lifecycle (SIGNIN-IDLE-RESET)' });
    expect(applied([old], rule({ checks: [{ title: 'lifecycle', inner: 'SIGNIN-IDLE-RESET' }] })).exitCode).toBe(0);
    expect(applied([old], rule({ checks: [{ title: 'lifecycle' }] })).exitCode).toBe(1);
    expect(applied([entry({ check: 'lifecycle' })], rule({ checks: [{ title: 'lifecycle', inner: 'SIGNIN-IDLE-RESET' }] })).exitCode).toBe(1);
  });

  it('a failed rule with no failed check is not matched by a title', () => {
    expect(applied([entry({ check: 'anything' })], rule({ checks: [{ title: 'anything', ok: true }] })).exitCode).toBe(1);
  });

  it('a skip or an error is matched by its deviation in words', () => {
    const skipped = rule({ status: 'skipped', unverified: ['needs a browser: none at /x'] });
    expect(applied([entry({ status: 'skipped', check: 'needs a browser' })], skipped, { strict: false, requireAll: true }).summary.accepted).toEqual([
      'SIGNIN-REVOKE',
    ]);
    expect(applied([entry({ status: 'skipped', check: 'needs a user' })], skipped, { strict: false, requireAll: true }).summary.accepted).toEqual([]);
    const error = rule({ status: 'error', reason: 'test crashed: at line 3' });
    expect(applied([entry({ status: 'error', check: 'test crashed' })], error).summary.expected).toEqual(['SIGNIN-REVOKE']);
    expect(applied([entry({ status: 'error', check: 'test crashed: at line 3' })], error).summary.expected).toEqual([]);
  });
});

describe('an entry naming nothing', () => {
  it('waives every deviation of the rule with its status, and says so', () => {
    const result = applied([entry()], rule({ checks: [A, B] }));
    expect(result.exitCode).toBe(0);
    expect(result.marks.get('SIGNIN-REVOKE')).toBe('expected');
    expect(result.summary.notes).toEqual([
      "the baseline's entry for SIGNIN-REVOKE names no check: it waives the rule whenever it is failed, " +
        'a new deviation too (name its checks: tack baseline write)',
    ]);
  });

  it('an entry naming its checks gives no such note', () => {
    expect(applied([entry({ checks: [A.id] })], rule({ checks: [A] })).summary.notes).toEqual([]);
    expect(applied([entry({ check: A.title })], rule({ checks: [A] })).summary.notes).toEqual([]);
  });
});

describe('accepted skips and --require-all', () => {
  const skipped = (level: 'MUST' | 'SHOULD' = 'MUST') => rule({ status: 'skipped', level, notChecked: ['token-page/x/needs/browser'], checks: [] });
  const ALL: ExitPolicy = { strict: false, requireAll: true };
  const passing = rule({ id: 'PARTNER-BAD-CREDENTIALS', status: 'passed' });

  it('a MUST skipped fails --require-all, unless an entry accepts it by its ids', () => {
    const red = applied([], [skipped(), passing], ALL);
    expect([red.exitCode, red.summary.newFailures, red.marks.get('SIGNIN-REVOKE')]).toEqual([1, ['SIGNIN-REVOKE'], 'new-failure']);
    const green = applied([entry({ status: 'skipped', checks: ['token-page/x/needs/browser'], reason: 'no browser here' })], [skipped(), passing], ALL);
    expect([green.exitCode, green.summary.accepted, green.summary.expected]).toEqual([0, ['SIGNIN-REVOKE'], []]);
    expect(green.marks.get('SIGNIN-REVOKE')).toBe('accepted');
    expect(green.reasons.get('SIGNIN-REVOKE')).toBe('no browser here');
  });

  it('an accepted skip still counts as not checked: a run of nothing else checked nothing', () => {
    const only = applied([entry({ status: 'skipped', checks: ['token-page/x/needs/browser'] })], skipped(), ALL);
    expect(only.exitCode).toBe(3);
  });

  it('a skip for another need is not accepted', () => {
    const other = rule({ status: 'skipped', notChecked: ['token-page/x/needs/browser', 'token-page/x/needs/user-password'] });
    const result = applied([entry({ status: 'skipped', checks: ['token-page/x/needs/browser'] })], [other, passing], ALL);
    expect([result.exitCode, result.summary.newFailures]).toEqual([1, ['SIGNIN-REVOKE']]);
  });

  it('a skip without ids is not matched by an entry with ids', () => {
    const bare = rule({ status: 'skipped', notChecked: [] });
    expect(applied([entry({ status: 'skipped', checks: ['t/needs/x'] })], [bare, passing], ALL).summary.newFailures).toEqual(['SIGNIN-REVOKE']);
  });

  it('without --require-all, or for a SHOULD, a skip fails nothing and is no new failure', () => {
    expect(applied([], [skipped(), passing]).summary.newFailures).toEqual([]);
    expect(applied([], [skipped('SHOULD'), passing], ALL).summary.newFailures).toEqual([]);
    expect(applied([], [skipped('SHOULD'), passing], ALL).marks.has('SIGNIN-REVOKE')).toBe(false);
  });
});

describe('what fails the run', () => {
  const passing = rule({ id: 'PARTNER-BAD-CREDENTIALS', status: 'passed' });

  it('a warning fails only under --strict', () => {
    const warning = rule({ status: 'warning', level: 'SHOULD', checks: [A] });
    expect(applied([], [warning, passing]).summary.newFailures).toEqual([]);
    expect(applied([], [warning, passing], { strict: true, requireAll: false }).summary.newFailures).toEqual(['SIGNIN-REVOKE']);
  });

  it('a known warning under --strict does not fail', () => {
    const warning = rule({ status: 'warning', level: 'SHOULD', checks: [A] });
    const result = applied([entry({ status: 'warning', checks: [A.id] })], [warning, passing], { strict: true, requireAll: false });
    expect([result.exitCode, result.summary.expected]).toEqual([0, ['SIGNIN-REVOKE']]);
  });

  it('an error is a new failure, and a known error ends the run as checked', () => {
    const error = rule({ status: 'error', notChecked: ['sign-in/revoke/error'] });
    expect(applied([], [error, passing]).summary.newFailures).toEqual(['SIGNIN-REVOKE']);
    expect(applied([], [error, passing]).exitCode).toBe(2);
    expect(applied([entry({ status: 'error', checks: ['sign-in/revoke/error'] })], [error, passing]).exitCode).toBe(0);
  });

  it('a problem with the test hook still makes the run incomplete', () => {
    const result = applyBaseline({ file: 'b.json', entries: [entry()] }, run([rule({ checks: [A] })], 'hook down'), LENIENT);
    expect(result.exitCode).toBe(2);
  });

  it('a passed rule with no entry is not marked', () => {
    const result = applied([], passing);
    expect(result.marks.size).toBe(0);
    expect(result.summary).toEqual({ file: 'b.json', entries: 0, expected: [], accepted: [], nowPassing: [], newFailures: [], notes: [] });
  });
});

describe('entries no longer needed', () => {
  it('a rule that now passes is reported, and the run holds', () => {
    const result = applied([entry({ checks: [A.id] }), entry({ rule: 'PARTNER-BAD-CREDENTIALS' })], rule({ status: 'passed', checks: [{ ...A, ok: true }] }));
    expect(result.summary.nowPassing).toEqual(['SIGNIN-REVOKE']);
    expect(result.marks.get('SIGNIN-REVOKE')).toBe('now-passing');
    expect(result.reasons.has('SIGNIN-REVOKE')).toBe(false);
    expect(result.summary.notes).toEqual(['now passing: SIGNIN-REVOKE: remove it from the baseline b.json']);
    expect(result.summary.entries).toBe(2);
    expect(result.exitCode).toBe(0);
  });

  it('an entry that no longer matches is stale, said with what it waives and where the rule deviates now', () => {
    const byIds = applied([entry({ checks: [A.id] }), entry({ check: 'old title' }), entry({ status: 'warning' })], rule({ checks: [B] }));
    expect(byIds.summary.notes).toEqual([
      `stale entry: SIGNIN-REVOKE is in the baseline as failed at ${A.id} or failed at "old title" or warning, but is now failed at ${B.id}`,
    ]);
    const byWords = applied([entry({ checks: [A.id] })], rule({ checks: [{ title: 'no  id <api-token#2>' }] }));
    expect(byWords.summary.notes).toEqual([`stale entry: SIGNIN-REVOKE is in the baseline as failed at ${A.id}, but is now failed at "no id <api-token>"`]);
  });

  it('a matching entry is not stale', () => {
    expect(applied([entry({ checks: [A.id] })], rule({ checks: [A] })).summary.notes).toEqual([]);
  });

  it('an entry for a rule not in the catalog is said, the rest applied', () => {
    const result = applied([entry({ rule: 'NO-SUCH-RULE' }), entry({ checks: [A.id] })], rule({ checks: [A] }));
    expect(result.summary.notes).toEqual(['the baseline names NO-SUCH-RULE, which is not a rule of this catalog (see: tack rules)']);
    expect(result.exitCode).toBe(0);
  });
});

describe('deviationOf: a deviation in words', () => {
  it("a failure is its first failed check's title, a property's with the rule its step broke", () => {
    expect(deviationOf(rule({ checks: [{ title: 'holds', ok: true }, { title: 'first  <api-token#12>' }, { title: 'second' }] }))).toBe('first <api-token>');
    expect(deviationOf(rule({ status: 'warning', checks: [{ title: 'prop', inner: 'SIGNIN-IDLE-RESET' }] }))).toBe('prop (SIGNIN-IDLE-RESET)');
    expect(deviationOf(rule({ checks: [] }))).toBe('the reason: in detail');
  });

  it('an error is its reason up to the first colon; a skip its parts not seen, else its reason', () => {
    expect(deviationOf(rule({ status: 'error' }))).toBe('the reason');
    expect(deviationOf(rule({ status: 'skipped', unverified: ['needs a browser: at /x: y', 'a user: none'] }))).toBe('needs a browser; a user');
    expect(deviationOf(rule({ status: 'skipped' }))).toBe('the reason: in detail');
    expect(deviationOf(rule({ status: 'passed', checks: [{ title: 'failed anyway' }] }))).toBe('the reason: in detail');
    expect(deviationOf(rule({ status: 'skipped', checks: [{ title: 'failed anyway' }] }))).toBe('the reason: in detail');
  });

  it('spaces are made one and trimmed; placeholder numbers left out, other text kept', () => {
    expect(deviationOf(rule({ status: 'passed', reason: ' a\n\tb  <api-token#3> <Api#3> <x#> c ' }))).toBe('a b <api-token> <Api#3> <x#> c');
  });
});

describe('deviationIds: a deviation by ids', () => {
  it('a failure: every failed check once; none when one has no id or none failed', () => {
    expect(deviationIds(rule({ checks: [A, { ...B, ok: true }, A, { id: 'x', title: 'x' }] }))).toEqual([A.id, 'x']);
    expect(deviationIds(rule({ status: 'warning', checks: [A] }))).toEqual([A.id]);
    expect(deviationIds(rule({ checks: [A, { title: 'no id' }] }))).toBeUndefined();
    expect(deviationIds(rule({ checks: [{ ...A, ok: true }] }))).toBeUndefined();
  });

  it('a skip or an error: what kept it from being checked, none when empty or absent', () => {
    expect(deviationIds(rule({ status: 'skipped', notChecked: ['t/needs/a', 't/needs/b'], checks: [A] }))).toEqual(['t/needs/a', 't/needs/b']);
    expect(deviationIds(rule({ status: 'error', notChecked: ['t/error'] }))).toEqual(['t/error']);
    expect(deviationIds(rule({ status: 'error', notChecked: [], checks: [A] }))).toBeUndefined();
    expect(deviationIds(rule({ status: 'skipped' }))).toBeUndefined();
  });

  it('a rule that passed has none', () => {
    expect(deviationIds(rule({ status: 'passed', checks: [A], notChecked: ['t/x'] }))).toBeUndefined();
  });
});

describe('baselineFrom: what `tack baseline write` writes', () => {
  it('every rule that does not hold and every MUST not checked, by ids or else in words', () => {
    const rules = [
      { ...rule({ checks: [A] }) },
      rule({ id: 'PARTNER-BAD-CREDENTIALS', status: 'warning', level: 'SHOULD', checks: [{ title: 'old' }], reason: 'w' }),
      rule({ id: 'PARTNER-HEADERS-REQUIRED', status: 'error', notChecked: ['t/error'], reason: 'e' }),
      rule({ id: 'TOKEN-PAGE-MASKED', status: 'skipped', notChecked: [], reason: 'needs a browser' }),
      rule({ id: 'SIGNIN-IDLE-RESET', status: 'skipped', level: 'SHOULD', reason: 's' }),
      rule({ id: 'PARTNER-HEADERS-REQUIRED', status: 'passed' }),
    ] as RuleResult[];
    expect(baselineFrom({ rules })).toEqual({
      schema: BASELINE_SCHEMA,
      expected: [
        { rule: 'SIGNIN-REVOKE', status: 'failed', checks: [A.id], reason: 'the reason: in detail' },
        { rule: 'PARTNER-BAD-CREDENTIALS', status: 'warning', check: 'old', reason: 'w' },
        { rule: 'PARTNER-HEADERS-REQUIRED', status: 'error', checks: ['t/error'], reason: 'e' },
        { rule: 'TOKEN-PAGE-MASKED', status: 'skipped', check: 'needs a browser', reason: 'needs a browser' },
      ],
    });
    expect(BASELINE_SCHEMA).toBe('tack-baseline/1');
  });
});

describe('reading and writing a baseline file', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'tack-baseline-unit-'));
  const usage = (f: () => unknown): TackError => {
    try {
      f();
    } catch (error) {
      expect(error).toBeInstanceOf(TackError);
      expect((error as TackError).code).toBe('TACK_ERR_USAGE');
      return error as TackError;
    }
    throw new Error('no error');
  };

  it('what write writes, read reads back; a bare list of entries too', () => {
    const file = join(dir(), 'b.json');
    const written = { schema: BASELINE_SCHEMA as typeof BASELINE_SCHEMA, expected: [entry({ checks: [A.id] })] };
    writeBaseline(file, written);
    expect(readFileSync(file, 'utf8')).toBe(`${JSON.stringify(written, null, 2)}\n`);
    expect(readBaseline(file)).toEqual({ file, entries: written.expected });
    writeFileSync(file, JSON.stringify([entry({ check: 'x' })]));
    expect(readBaseline(file).entries).toEqual([entry({ check: 'x' })]);
  });

  it('a file missing, or not JSON, is a usage error saying why', () => {
    const d = dir();
    expect(usage(() => readBaseline(join(d, 'none.json'))).message).toBe(`--baseline ${join(d, 'none.json')} could not be read (ENOENT)`);
    writeFileSync(join(d, 'bad.json'), '{');
    expect(usage(() => readBaseline(join(d, 'bad.json'))).message).toBe(`--baseline ${join(d, 'bad.json')} could not be read (not JSON)`);
  });

  it('a bad shape is a usage error naming the first problem and where', () => {
    const d = dir();
    const read = (content: unknown) => {
      const file = join(d, 'shape.json');
      writeFileSync(file, JSON.stringify(content));
      return usage(() => readBaseline(file)).message.replace(file, 'F');
    };
    expect(read({ expected: [{ rule: 'SIGNIN-REVOKE', status: 'failed' }] })).toMatch(
      /^--baseline F is not a baseline: expected\.0\.reason: .* \(write one with: tack baseline write\)$/,
    );
    expect(read({ expected: [entry({ reason: '' })] })).toContain('expected.0.reason: each entry needs a reason: why the deviation is accepted');
    expect(read({ expected: [entry({ rule: '' })] })).toContain('expected.0.rule: each entry needs a rule id');
    expect(read({ expected: [entry({ status: 'passed' as 'failed' })] })).toContain('expected.0.status: status must be failed, warning, error or skipped');
    expect(read({ expected: [entry({ checks: [] })] })).toContain('expected.0.checks: checks, when given, lists the ids');
    expect(read({ expected: [entry({ checks: [''] })] })).toContain('expected.0.checks.0');
    expect(read({ expected: [entry({ check: '' })] })).toContain('expected.0.check: check, when given, names the failed check');
    expect(read({ schema: 'tack-baseline/2', expected: [] })).toContain('is not a baseline: schema: ');
    expect(read('text')).toMatch(/is not a baseline: file: /);
  });

  it('a baseline with its schema, or without, and no entries, is read', () => {
    const file = join(dir(), 'b.json');
    writeFileSync(file, JSON.stringify({ schema: 'tack-baseline/1', expected: [] }));
    expect(readBaseline(file).entries).toEqual([]);
  });
});

describe('survivors of mutation testing, pinned', () => {
  it('the summary results.json writes is checked for its fields', () => {
    expect(baselineSummarySchema.safeParse({}).success).toBe(false);
    const summary = { file: 'b.json', entries: 1, expected: [], nowPassing: [], newFailures: [], notes: [] };
    expect(baselineSummarySchema.safeParse(summary).success).toBe(true);
    expect(baselineSummarySchema.safeParse({ ...summary, entries: '1' }).success).toBe(false);
  });

  it('an entry may be for a warning, an error or a skip', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'tack-baseline-unit-')), 'b.json');
    const entries = (['failed', 'warning', 'error', 'skipped'] as const).map((status) => entry({ status }));
    writeFileSync(file, JSON.stringify(entries));
    expect(readBaseline(file).entries).toEqual(entries);
  });

  it('a failed rule with no failed check left is its reason in words, not its parts not seen', () => {
    expect(deviationOf(rule({ checks: [], unverified: ['a part: not seen'] }))).toBe('the reason: in detail');
    expect(deviationOf(rule({ status: 'passed', unverified: ['a part: not seen'] }))).toBe('the reason: in detail');
  });

  it('a stale note lists every id the entry waives and every id the rule fails at, comma-separated', () => {
    const result = applied([entry({ checks: [A.id, 'x/y'] })], rule({ checks: [B, { id: 'x/z', title: 'z' }] }));
    expect(result.summary.notes).toEqual([`stale entry: SIGNIN-REVOKE is in the baseline as failed at ${A.id}, x/y, but is now failed at ${B.id}, x/z`]);
  });

  it('a rule with no entry gives no stale note', () => {
    expect(applied([], rule({ checks: [A] })).summary.notes).toEqual([]);
    expect(applied([], rule({ status: 'skipped', level: 'SHOULD' })).summary.notes).toEqual([]);
  });
});
