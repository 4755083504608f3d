/**
 * runConformance with fake tests (no target): when a rule's verdict is final, and how checks, errors,
 * unverified parts and unmet needs combine into one verdict.
 */
import { describe, expect, it } from 'vitest';
import { finding } from '../../src/checks/finding.js';
import { mergeReasons, planRules } from '../../src/runner/selection.js';
import type { TestContext } from '../../src/runner/test-context.js';
import type { TestPart } from '../../src/runner/needs.js';
import { fake, pass, run, TARGET } from './fake-tests.js';

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

  it('a test whose needs are unmet leaves its rules skipped with the variable named', async () => {
    const result = await run([fake('needs', ['SIGNIN-REVOKE'], pass('SIGNIN-REVOKE'), ['hook:users'])], ['SIGNIN-REVOKE']);
    expect(result.rules[0]!.status).toBe('skipped');
    expect(result.rules[0]!.reason).toContain('TACK_HOOK_URL');
  });
});
