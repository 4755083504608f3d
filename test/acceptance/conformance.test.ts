/**
 * The reference server passes every rule, and every rule of the catalog has a fault that makes it
 * fail (a check that cannot fail is a defect).
 */
import { describe, expect, it } from 'vitest';
import { FAULTS } from '../../src/reference/faults.js';
import { getRule, SERVER_RULES } from '../../src/rules/catalog.js';
import { exitCodeOf } from '../../src/harness/exit-code.js';
import { runAgainstReference } from '../helpers/reference-run.js';

describe('conformance run against the reference server', () => {
  it('passes every rule and exits 0', async () => {
    const result = await runAgainstReference({ runs: 8 });
    // The token-page rules are checked in a browser by checks that are not in this branch yet
    // (issue 10); until they land, tack reports them skipped ("no test ... covers it").
    const notPassed = result.rules
      .filter((r) => r.status !== 'passed' && !(getRule(r.id)?.area === 'token-page' && r.status === 'skipped'))
      .map((r) => `${r.id}: ${r.status}: ${r.reason}`);
    expect(notPassed).toEqual([]);
    expect(exitCodeOf(result.rules, { strict: true, requireAll: false })).toBe(0);
  });

  it('has a fault for every server rule of the catalog', () => {
    const broken = new Set<string>(FAULTS.flatMap((f) => f.rules));
    expect(SERVER_RULES.map((r) => r.id).filter((id) => !broken.has(id))).toEqual([]);
  });
});
