/**
 * A test's context (src/runner/test-context.ts): what a property reports (the failing counterexample's
 * exchanges; errors as error; too few runs as error) and how checks get their ids.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { finding } from '../../src/checks/finding.js';
import { Redactor } from '../../src/harness/redactor.js';
import { Transcript } from '../../src/harness/transcript.js';
import { type ContextParts, keyed, TestContext, UndeclaredRule } from '../../src/runner/test-context.js';
import type { TestCase } from '../../src/runner/test-case.js';

describe('properties', () => {
  function context(rules: TestCase['rules'], numRuns: number, deadlineAt = Number.POSITIVE_INFINITY) {
    const transcript = new Transcript();
    transcript.setTest('prop');
    const parts = { redactor: new Redactor(), transcript, fc: { seed: 7, numRuns, path: undefined } } as unknown as ContextParts;
    return { t: new TestContext(parts, { id: 'prop', rules }, deadlineAt), transcript };
  }
  const exchangeOf = (transcript: Transcript, n: number) => transcript.begin({ method: 'GET', url: `http://x/${n}` });

  it('a failure carries the exchanges of the failing counterexample after shrinking, not of the last attempt', async () => {
    const { t, transcript } = context(['SIGNIN-LIFECYCLE'], 50);
    const seen = new Map<number, number>();
    await expect(
      t.property('SIGNIN-LIFECYCLE', 'n stays small', fc.integer({ min: 0, max: 1000 }), async (n) => {
        seen.set(exchangeOf(transcript, n), n);
        t.check('SIGNIN-LIFECYCLE', 'small', finding(n < 10, '< 10', String(n)));
      }),
    ).rejects.toThrow();
    const check = t.checks[0]!;
    expect(check.replay?.counterexample).toBe('[10]');
    // The evidence is the run of the counterexample (10), although shrinking tried smaller values after it.
    expect(check.exchanges.map((seq) => seen.get(seq))).toEqual([10]);
    expect(Math.max(...seen.keys())).toBeGreaterThan(check.exchanges[0]!);
  });

  it('a transport or hook error inside it is an error, not a failure', async () => {
    const { t } = context(['SIGNIN-LIFECYCLE'], 20);
    await expect(
      t.property('SIGNIN-LIFECYCLE', 'talks to a dead target', fc.nat(), async () => {
        throw new Error('ECONNRESET');
      }),
    ).rejects.toThrow('ECONNRESET');
    expect(t.checks).toEqual([]);
  });

  it('cut off by its time limit before making its runs, it is not a pass', async () => {
    const { t } = context(['SIGNIN-LIFECYCLE'], 1000, Date.now() + 3_000);
    await expect(
      t.property('SIGNIN-LIFECYCLE', 'slow', fc.nat(), async (n) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        t.check('SIGNIN-LIFECYCLE', 'fine', finding(n >= 0, '≥ 0', String(n)));
      }),
    ).rejects.toThrow(/made \d+ of 1000 runs before its time limit/);
    expect(t.checks).toEqual([]);
  });

  it('its rule must be declared too', async () => {
    const { t } = context(['SIGNIN-LIFECYCLE'], 1);
    await expect(t.property('SIGNIN-ROTATION', 'x', fc.nat(), async () => undefined)).rejects.toThrow(UndeclaredRule);
  });
});

describe('check ids', () => {
  const context = () => {
    const transcript = new Transcript();
    const parts = { redactor: new Redactor(), transcript, fc: { seed: 7, numRuns: 1, path: undefined } } as unknown as ContextParts;
    return new TestContext(parts, { id: 'area/test', rules: ['SIGNIN-REVOKE', 'SIGNIN-NO-STORE'] });
  };

  it('a reworded title keeps its id: the id is the test, the rule and the check place or key, never the title', () => {
    const [before, after] = [context(), context()];
    for (const [t, words] of [
      [before, 'revoke: status'],
      [after, 'revoking answers 200'],
    ] as const) {
      t.soft('SIGNIN-NO-STORE', 'no-store', finding(true, 'x', 'x'));
      t.soft('SIGNIN-REVOKE', 'first', finding(true, 'x', 'x'));
      t.soft('SIGNIN-REVOKE', words, finding(false, 'x', 'y'));
      t.soft('SIGNIN-REVOKE', keyed('POST /revoke', `every answer of POST /revoke (${words})`), finding(false, 'x', 'y'));
    }
    const ids = (t: TestContext) => t.checks.map((c) => c.id);
    expect(ids(before)).toEqual([
      'area/test/SIGNIN-NO-STORE/1',
      'area/test/SIGNIN-REVOKE/1',
      'area/test/SIGNIN-REVOKE/2',
      'area/test/SIGNIN-REVOKE/POST /revoke',
    ]);
    expect(ids(after)).toEqual(ids(before));
    expect(after.checks.map((c) => c.title)).not.toEqual(before.checks.map((c) => c.title));
  });
});
