/**
 * The run's records: the statuses that do not hold, and the schemas the runner's types are derived
 * from (results.json writes the runner's records as they are).
 */
import { describe, expect, it } from 'vitest';
import { checkSchema, doesNotHold, NOT_HOLDING, ruleSchema, STATUSES, testSchema } from '../../src/runner/results.js';
import type { CheckResult, RuleResult, TestOutcome } from '../../src/runner/results.js';

describe('the statuses', () => {
  it('that do not hold are failed, warning and error, listed first', () => {
    expect(STATUSES.filter(doesNotHold)).toEqual(['failed', 'warning', 'error']);
    expect(STATUSES.slice(0, NOT_HOLDING.length)).toEqual([...NOT_HOLDING]);
  });
});

describe('the records', () => {
  const check: CheckResult = { rule: 'SIGNIN-REVOKE', test: 'sign-in/revoke', title: 't', ok: true, expected: 'e', actual: 'a', exchanges: [1] };
  const rule: RuleResult = {
    id: 'SIGNIN-REVOKE',
    level: 'MUST',
    area: 'sign-in',
    section: '§4.2',
    text: 'x',
    status: 'passed',
    reason: '',
    durationMs: 3,
    checks: [check],
    observations: [],
    unverified: [],
    cutShort: [],
    tests: ['sign-in/revoke'],
  };
  const test: TestOutcome = { id: 'sign-in/revoke', title: 't', rules: ['SIGNIN-REVOKE'], status: 'passed', reason: '', durationMs: 3 };

  it('of the runner pass the schemas they are derived from', () => {
    expect(checkSchema.safeParse(check).success).toBe(true);
    expect(ruleSchema.safeParse(rule).success).toBe(true);
    expect(testSchema.safeParse(test).success).toBe(true);
  });

  it('are loose: a newer member is kept, a missing one refused', () => {
    expect(checkSchema.parse({ ...check, id: 'c1' })).toMatchObject({ id: 'c1' });
    const { ok: _, ...noOk } = check;
    expect(checkSchema.safeParse(noOk).success).toBe(false);
  });
});
