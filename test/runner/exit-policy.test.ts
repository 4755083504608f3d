/**
 * The exit code of a run from its rules' statuses (src/runner/exit-policy.ts), one case a row: what
 * fails a run, what leaves it incomplete, what leaves it with nothing checked, and the order in which
 * they win when a run has several.
 */
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/harness/errors.js';
import { type ExitPolicy, exitCodeOf, uncheckedMusts } from '../../src/runner/exit-policy.js';
import type { RuleResult } from '../../src/runner/results.js';

type Rule = Pick<RuleResult, 'status' | 'level'>;
const must = (status: Rule['status']): Rule => ({ status, level: 'MUST' });
const should = (status: Rule['status']): Rule => ({ status, level: 'SHOULD' });

const PLAIN: ExitPolicy = { strict: false, requireAll: false };
const STRICT: ExitPolicy = { strict: true, requireAll: false };
const REQUIRE_ALL: ExitPolicy = { strict: false, requireAll: true };

describe('exitCodeOf', () => {
  it.each([
    ['every MUST checked holds', [must('passed'), should('passed')], PLAIN, EXIT.ok],
    ['a failed MUST fails the run', [must('passed'), must('failed')], PLAIN, EXIT.mustFailed],
    ['a failed rule fails the run whatever its level', [should('failed'), must('passed')], PLAIN, EXIT.mustFailed],
    ['a SHOULD warning alone passes a plain run', [must('passed'), should('warning')], PLAIN, EXIT.ok],
    ['a SHOULD warning fails a strict run', [must('passed'), should('warning')], STRICT, EXIT.mustFailed],
    ['a skipped MUST passes a plain run', [must('passed'), must('skipped')], PLAIN, EXIT.ok],
    ['a skipped MUST fails a run with --require-all', [must('passed'), must('skipped')], REQUIRE_ALL, EXIT.mustFailed],
    ['a skipped SHOULD does not fail a run with --require-all', [must('passed'), should('skipped')], REQUIRE_ALL, EXIT.ok],
    ['--strict alone does not demand a skipped MUST', [must('passed'), must('skipped')], STRICT, EXIT.ok],
    ['--require-all alone does not fail a warning', [must('passed'), should('warning')], REQUIRE_ALL, EXIT.ok],
    ['a rule in error leaves the run incomplete', [must('passed'), must('error')], PLAIN, EXIT.incomplete],
    ['a failure wins over an error', [must('error'), must('failed')], PLAIN, EXIT.mustFailed],
    ['nothing checked: every rule skipped', [must('skipped'), should('skipped')], PLAIN, EXIT.nothingChecked],
    ['nothing checked: no rule at all', [], PLAIN, EXIT.nothingChecked],
    ['an error wins over nothing checked', [must('error'), must('skipped')], PLAIN, EXIT.incomplete],
    ['a warning alone is something checked', [should('warning')], PLAIN, EXIT.ok],
    ['a pass alone is something checked', [must('passed')], PLAIN, EXIT.ok],
  ] as const)('%s', (_name, rules, policy, code) => {
    expect(exitCodeOf(rules, policy)).toBe(code);
  });

  it('a configured hook that cannot be used leaves an otherwise green run incomplete', () => {
    expect(exitCodeOf([must('passed')], PLAIN, 'the hook answered 404')).toBe(EXIT.incomplete);
    expect(exitCodeOf([must('passed')], PLAIN, undefined)).toBe(EXIT.ok);
  });

  it('an unusable hook does not hide a failure', () => {
    expect(exitCodeOf([must('failed')], PLAIN, 'the hook answered 404')).toBe(EXIT.mustFailed);
  });
});

describe('uncheckedMusts', () => {
  it('counts the skipped MUST rules only', () => {
    expect(uncheckedMusts([must('skipped'), must('skipped'), must('skipped'), should('skipped'), must('passed'), must('error')])).toBe(3);
    expect(uncheckedMusts([])).toBe(0);
  });
});

describe('the exit code, by status and level', () => {
  const rules = (...statuses: [RuleResult['status'], 'MUST' | 'SHOULD'][]) => statuses.map(([status, level]) => ({ status, level }));
  it.each([
    [rules(['passed', 'MUST'], ['skipped', 'MUST']), { strict: false, requireAll: false }, 0],
    [rules(['passed', 'MUST'], ['skipped', 'MUST']), { strict: false, requireAll: true }, 1],
    [rules(['passed', 'MUST'], ['warning', 'SHOULD']), { strict: false, requireAll: false }, 0],
    [rules(['passed', 'MUST'], ['warning', 'SHOULD']), { strict: true, requireAll: false }, 1],
    [rules(['passed', 'MUST'], ['error', 'MUST']), { strict: false, requireAll: false }, 2],
    [rules(['failed', 'MUST'], ['error', 'MUST']), { strict: false, requireAll: false }, 1],
    [rules(['skipped', 'MUST']), { strict: false, requireAll: false }, 3],
  ] as const)('%j with %j → %i', (list, policy, code) => {
    expect(exitCodeOf(list, policy)).toBe(code);
  });
});
