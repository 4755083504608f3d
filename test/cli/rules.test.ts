/**
 * `tack rules RULE` names, for every rule, the tests that judge it, the lines that check it (the
 * same lines a grep for the id finds in suites/ and scenarios/) and the reference faults that break
 * it, computed from the code.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ruleTraces } from '../../src/cli/rule-trace.js';
import { ALL_TESTS } from '../../suites/index.js';
import { ROOT } from '../helpers/sources.js';
import { needText } from '../../src/runner/needs.js';

/** Every area's rules are checked in this version of tack. */
const CHECKED_AREAS = new Set(['partner-key', 'sign-in', 'api', 'client', 'token-page']);

describe('tack rules', () => {
  const traces = ruleTraces().filter((t) => CHECKED_AREAS.has(t.area));

  it.each(traces.map((t) => [t.id, t] as const))('%s: tests, check sites and faults', (_id, trace) => {
    expect(trace.tests.length).toBeGreaterThan(0);
    expect(trace.checkSites.length).toBeGreaterThan(0);
    expect(trace.faults.length).toBeGreaterThan(0);
  });

  it("says what each need asks in words: a browser, a password or a token of tack's own is no hook capability", () => {
    const needs = new Map(ALL_TESTS.flatMap((test) => test.needs.map((n) => [n, needText(n)] as const)));
    expect([...needs.keys()]).toEqual(expect.arrayContaining(['browser', 'user-password', 'own-token', 'api-token']));
    for (const [need, text] of needs) {
      if (need.startsWith('hook:')) expect(text).toBe(`hook capability ${need.slice(5)} (TACK_HOOK_URL, TACK_HOOK_TOKEN)`);
      else expect(text).not.toMatch(/^hook capability/);
    }
  });

  it('the check sites are exactly the lines a grep for the id finds', () => {
    const trace = traces.find((t) => t.id === 'SIGNIN-ROTATION')!;
    const grep = execFileSync('grep', ['-rn', "'SIGNIN-ROTATION'", 'src/steps', 'suites', 'scenarios'], { cwd: ROOT, encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((line) => line.split(':').slice(0, 2).join(':'));
    expect([...trace.checkSites].sort()).toEqual([...new Set(grep)].sort());
  });
});
