/**
 * The runner with fake tests (no target): which tests a selection runs, when a rule's verdict is
 * final, how checks, errors, unverified parts and skips combine into one verdict, and what a
 * property reports (the failing counterexample's exchanges; errors as error; too few runs as error).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveTarget, validateEnv } from '../../src/harness/config.js';
import { type ContextParts, keyed, TestContext, UndeclaredRule } from '../../src/runner/test-context.js';
import { exitCodeOf } from '../../src/runner/exit-policy.js';
import { finding } from '../../src/checks/finding.js';
import { HttpClient } from '../../src/harness/http.js';
import { Redactor } from '../../src/harness/redactor.js';
import { runConformance } from '../../src/runner/index.js';
import { RuleEvidence } from '../../src/runner/rule-verdict.js';
import { mergeReasons, planRules, selectTests } from '../../src/runner/selection.js';
import { groupSkips } from '../../src/reporters/skips.js';
import { Transcript } from '../../src/harness/transcript.js';
import type { TestCase } from '../../src/runner/test-case.js';
import type { TestPart } from '../../src/runner/needs.js';
import type { TargetConfig } from '../../src/harness/target-config.js';
import type { RuleResult } from '../../src/runner/results.js';

const TARGET: TargetConfig = resolveTarget(
  validateEnv({ TACK_BASE_URL: 'http://acme.localhost:1', TACK_IDENTITY_URL: 'http://id.localhost:1/realms/payroll' }),
  false,
);

function fake(id: string, rules: TestCase['rules'], run: TestCase['run'], needs: TestCase['needs'] = []): TestCase {
  return { id, title: id, rules, needs, run };
}

async function run(tests: TestCase[], only: string[] = [], onRule?: (r: RuleResult) => void) {
  const redactor = new Redactor();
  const transcript = new Transcript();
  const http = new HttpClient({ timeoutMs: 1000, insecureTls: false, redactor, transcript });
  try {
    return await runConformance({
      target: TARGET,
      tests,
      only,
      seed: 1,
      numRuns: 5,
      path: undefined,
      runId: 'r1',
      http,
      redactor,
      transcript,
      ...(onRule ? { onRule } : {}),
    });
  } finally {
    await http.close();
  }
}

const pass = (rule: TestCase['rules'][number]) => async (t: TestContext) => t.check(rule, 'holds', finding(true, 'x', 'x'));

describe('selection', () => {
  it('runs exactly the tests that declare a selected rule', () => {
    const a = fake('a', ['SIGNIN-EXCHANGE'], pass('SIGNIN-EXCHANGE'));
    const b = fake('b', ['SIGNIN-ROTATION', 'SIGNIN-EXCHANGE'], pass('SIGNIN-ROTATION'));
    const c = fake('c', ['SIGNIN-REVOKE'], pass('SIGNIN-REVOKE'));
    const s = selectTests([a, b, c], ['SIGNIN-EXCHANGE']);
    expect(s.tests.map((t) => t.id)).toEqual(['a', 'b']);
    expect(s.lastTestOf.get('SIGNIN-EXCHANGE')).toBe(1);
  });
});

describe('what a test needs, said once', () => {
  const part: TestPart = { rule: 'SIGNIN-LIFECYCLE', title: 'a disabled user in the lifecycle table', needs: ['hook:disable-user'] };
  const needy = fake('needy', ['SIGNIN-IDLE-EXPIRY'], pass('SIGNIN-IDLE-EXPIRY'), ['hook:clock', 'hook:users', 'hook:api-tokens']);
  const other = fake('other', ['SIGNIN-IDLE-EXPIRY', 'SIGNIN-LIFECYCLE'], pass('SIGNIN-IDLE-EXPIRY'), ['hook:users', 'hook:disable-user']);

  it('names every missing capability of the hook in one reason, across the tests of a rule', async () => {
    const [idle] = (await run([needy, other], ['SIGNIN-IDLE-EXPIRY'])).rules;
    const hook = 'needs the test hook (TACK_HOOK_URL, TACK_HOOK_TOKEN) with the';
    expect(idle).toMatchObject({ status: 'skipped', reason: `${hook} clock, users, api-tokens and disable-user capabilities` });
    const noHook = (capability: 'clock' | 'users') => ({
      need: `hook:${capability}` as const,
      reason: 'words never read',
      hook: { capability, missing: 'no-hook' as const },
    });
    const browser = { need: 'browser' as const, reason: 'needs a browser: none' };
    expect(mergeReasons([noHook('clock'), browser, noHook('users'), noHook('clock')])).toEqual([
      'needs a browser: none',
      `${hook} clock and users capabilities`,
    ]);
  });

  it('merges the missing capabilities from the needs as data, not by parsing the reason words (needs.ts may reword them)', () => {
    const lacking = {
      need: 'hook:clock' as const,
      reason: 'reworded: the hook lacks clock',
      hook: { capability: 'clock' as const, missing: 'not-offered' as const },
    };
    expect(mergeReasons([lacking, 'no test in this version of tack covers it'])).toEqual([
      'no test in this version of tack covers it',
      "the target's test hook does not offer the clock capability",
    ]);
  });

  it('a skipped rule names what kept it from being checked by ids (the tests and their needs unmet), not by the words of its reason', async () => {
    const [idle] = (await run([needy, other], ['SIGNIN-IDLE-EXPIRY'])).rules;
    expect(idle!.notChecked).toEqual([
      'needy/needs/hook:clock',
      'needy/needs/hook:users',
      'needy/needs/hook:api-tokens',
      'other/needs/hook:users',
      'other/needs/hook:disable-user',
    ]);
  });

  it("a part whose needs are unmet is not checked, the rule at best skipped, as tack doctor's plan says", async () => {
    const partly = {
      ...fake('partly', ['SIGNIN-LIFECYCLE'], async (t: TestContext) => {
        t.check('SIGNIN-LIFECYCLE', 'the rest holds', finding(true, 'x', 'x'));
        if (t.can(part)) throw new Error('a part whose needs are unmet must not run');
      }),
      parts: [part],
    };
    const [lifecycle] = (await run([partly], ['SIGNIN-LIFECYCLE'])).rules;
    expect(lifecycle).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/^partly checked \(1 check passed\); not checked: a disabled user/) });
    expect(planRules([partly], [], TARGET, undefined, undefined).find((p) => p.rule === 'SIGNIN-LIFECYCLE')).toMatchObject({
      tests: ['partly'],
      skipReasons: [expect.stringMatching(/not checked: a disabled user in the lifecycle table: needs the test hook .* disable-user capability$/)],
    });
  });

  it('groups skipped rules by why for the console and summary.md', () => {
    const hook = 'needs the test hook (TACK_HOOK_URL, TACK_HOOK_TOKEN) with the';
    const groups = groupSkips([
      { id: 'SIGNIN-IDLE-EXPIRY', reason: `${hook} clock, users and api-tokens capabilities` },
      { id: 'SIGNIN-REVOKE', reason: `${hook} users and api-tokens capabilities` },
      { id: 'TOKEN-PAGE-COPY', reason: 'needs a browser: none found' },
    ]);
    expect(groups).toEqual([
      { why: 'needs the test hook (TACK_HOOK_URL, TACK_HOOK_TOKEN): clock, users, api-tokens', rules: ['SIGNIN-IDLE-EXPIRY', 'SIGNIN-REVOKE'] },
      { why: 'needs a browser: none found', rules: ['TOKEN-PAGE-COPY'] },
    ]);
  });
});

describe('verdicts', () => {
  it('a rule is final only after every test declaring it: its line comes after the last one', async () => {
    const order: string[] = [];
    const first = fake('first', ['SIGNIN-EXCHANGE'], async (t) => {
      order.push('first');
      t.check('SIGNIN-EXCHANGE', 'ok here', finding(order.length > 0, 'x', 'x'));
    });
    const second = fake('second', ['SIGNIN-EXCHANGE'], async (t) => {
      order.push('second');
      t.soft('SIGNIN-EXCHANGE', 'broken here', finding(order.length < 0, 'y', 'z'));
    });
    const result = await run([first, second], ['SIGNIN-EXCHANGE'], (r) => order.push(`verdict ${r.id} ${r.status}`));
    expect(order).toEqual(['first', 'second', 'verdict SIGNIN-EXCHANGE failed']);
    expect(result.rules[0]!.tests).toEqual(['first', 'second']);
  });

  it('a check on a rule the test does not declare is a tack bug, reported as error', async () => {
    const sneaky = fake('sneaky', ['SIGNIN-EXCHANGE'], async (t) => {
      t.check('SIGNIN-EXCHANGE', 'fine', finding(true, 'x', 'x'));
      t.soft('SIGNIN-ROTATION', 'not mine', finding(true, 'x', 'x'));
    });
    const result = await run([sneaky], ['SIGNIN-EXCHANGE']);
    expect(result.rules[0]!.status).toBe('error');
    expect(result.rules[0]!.reason).toContain('does not declare');
  });

  it('an unverified part keeps a rule from passing: skipped, partly checked, with the reason', async () => {
    const partly = fake('partly', ['PARTNER-MINT'], async (t) => {
      t.check('PARTNER-MINT', 'tokens returned', finding(true, 'x', 'x'));
      t.unverified('PARTNER-MINT', 'the token works', 'needs TACK_USER_EMAIL');
    });
    const [rule] = (await run([partly])).rules.filter((r) => r.id === 'PARTNER-MINT');
    expect(rule!.status).toBe('skipped');
    expect(rule!.reason).toBe('partly checked (1 check passed); not checked: the token works: needs TACK_USER_EMAIL');
  });

  it("a test stopped by another rule's failure leaves the rest of its rules partly checked, never passed", async () => {
    const stops = fake('stops', ['SIGNIN-IDLE-RESET', 'SIGNIN-ABSOLUTE-EXPIRY', 'SIGNIN-REVOKE'], async (t) => {
      t.check('SIGNIN-ABSOLUTE-EXPIRY', 'exchange at 20 d', finding(true, 'x', 'x'));
      t.check('SIGNIN-IDLE-RESET', 'exchange at 40 d', finding(false, '200', '400'));
    });
    const other = fake('other', ['SIGNIN-REVOKE'], pass('SIGNIN-REVOKE'));
    const rules = new Map((await run([stops, other])).rules.map((r) => [r.id, r]));
    expect(rules.get('SIGNIN-IDLE-RESET')!.status).toBe('failed');
    const cut = rules.get('SIGNIN-ABSOLUTE-EXPIRY')!;
    expect(cut.status).toBe('skipped');
    expect(cut.reason).toMatch(/^partly checked \(1 check passed\); not checked: the rest of stops, which stopped before it: SIGNIN-IDLE-RESET: /);
    // Passed by another test, but "stops" never reached its part of the rule.
    expect(rules.get('SIGNIN-REVOKE')!.status).toBe('skipped');
    expect(rules.get('SIGNIN-REVOKE')!.unverified).toEqual([expect.stringMatching(/^stops stopped before checking it: SIGNIN-IDLE-RESET: /)]);
    // The same, as data: the test and the rule it stopped at, never read back from the words.
    expect(cut.cutShort).toEqual([{ test: 'stops', stoppedAt: 'SIGNIN-IDLE-RESET' }]);
    expect(rules.get('SIGNIN-REVOKE')!.cutShort).toEqual([{ test: 'stops', stoppedAt: 'SIGNIN-IDLE-RESET' }]);
    expect(rules.get('SIGNIN-IDLE-RESET')!.cutShort).toEqual([]);
  });

  it('a scenario that returns early after a soft failure leaves its other rules partly checked, as a stopped one does', async () => {
    const onboarding = fake('onboarding', ['PARTNER-CREATE-USER', 'PARTNER-MINT', 'PARTNER-REFRESH'], async (t) => {
      const created = t.soft('PARTNER-CREATE-USER', '1. create the user', finding(false, '201', '500'));
      if (!created) return; // the early return of scenario/partner-onboarding
      t.check('PARTNER-MINT', '3. mint', finding(true, 'x', 'x'));
    });
    const others = [fake('mint', ['PARTNER-MINT'], pass('PARTNER-MINT')), fake('refresh', ['PARTNER-REFRESH'], pass('PARTNER-REFRESH'))];
    const rules = new Map((await run([onboarding, ...others])).rules.map((r) => [r.id, r]));
    expect(rules.get('PARTNER-CREATE-USER')!.status).toBe('failed');
    for (const id of ['PARTNER-MINT', 'PARTNER-REFRESH'] as const) {
      // Passed by another test, but the scenario never reached its part of the rule.
      expect(rules.get(id)).toMatchObject({ status: 'skipped', cutShort: [{ test: 'onboarding', stoppedAt: 'PARTNER-CREATE-USER' }] });
      expect(rules.get(id)!.reason).toBe(
        'partly checked (1 check passed); not checked: onboarding did not check it after a failed check: ' +
          'PARTNER-CREATE-USER: 1. create the user: expected 201, got 500',
      );
    }
  });

  it('a test that ends without checking a rule it declares leaves it not passed, whatever other tests saw', async () => {
    const idle = fake('idle', ['SIGNIN-EXCHANGE', 'SIGNIN-ROTATION'], pass('SIGNIN-EXCHANGE'));
    const rules = new Map((await run([idle, fake('rotation', ['SIGNIN-ROTATION'], pass('SIGNIN-ROTATION'))])).rules.map((r) => [r.id, r]));
    expect(rules.get('SIGNIN-EXCHANGE')!.status).toBe('passed');
    expect(rules.get('SIGNIN-ROTATION')).toMatchObject({
      status: 'skipped',
      reason: 'partly checked (1 check passed); not checked: idle: the test ended without checking it',
    });
  });

  it('precedence: failed over error over unverified over passed; SHOULD fails as warning', () => {
    const e = new RuleEvidence('SIGNIN-NO-STORE');
    e.checks.push({ rule: 'SIGNIN-NO-STORE', test: 't', title: 'no-store', ok: false, expected: 'a', actual: 'b', exchanges: [] });
    e.errors.push('t: boom');
    expect(e.finalise().status).toBe('warning');
    const f = new RuleEvidence('SIGNIN-EXCHANGE');
    f.errors.push('t: boom');
    f.unverified.push({ rule: 'SIGNIN-EXCHANGE', title: 'x', reason: 'y' });
    expect(f.finalise().status).toBe('error');
  });

  it('a test whose needs are unmet leaves its rules skipped with the variable named', async () => {
    const result = await run([fake('needs', ['SIGNIN-REVOKE'], pass('SIGNIN-REVOKE'), ['hook:users'])], ['SIGNIN-REVOKE']);
    expect(result.rules[0]!.status).toBe('skipped');
    expect(result.rules[0]!.reason).toContain('TACK_HOOK_URL');
  });
});

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

describe('the exit code', () => {
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
