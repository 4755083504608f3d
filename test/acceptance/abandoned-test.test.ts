/**
 * A test that runs out of time is abandoned: its rules are `error`, and whatever its promise still
 * does afterwards cannot reach the target's clock or record a verdict for the tests after it.
 */
import { describe, expect, it } from 'vitest';
import { runConformance } from '../../src/runner/index.js';
import { startBuiltIn } from '../../src/cli/built-in.js';
import { finding } from '../../src/checks/finding.js';
import { openSession } from '../../src/harness/session.js';
import type { TestCase } from '../../src/runner/test-case.js';

describe('a test that runs out of time', () => {
  it('is reported as error and can no longer move the clock or record checks', async () => {
    const session = await openSession({ env: {}, builtIn: startBuiltIn });
    let lateAdvance: unknown = 'not reached';
    const slow: TestCase = {
      id: 'test/slow',
      title: 'sleeps past its time limit, then tries to move the clock',
      rules: ['SIGNIN-IDLE-EXPIRY'],
      needs: ['hook:clock'],
      async run(t) {
        await new Promise((resolve) => setTimeout(resolve, 2_500));
        try {
          await t.advance(86_400);
          lateAdvance = 'moved';
        } catch (error) {
          lateAdvance = error;
        }
        t.check('SIGNIN-IDLE-EXPIRY', 'a late verdict', finding(lateAdvance === 'moved', 'x', 'x'));
      },
    };
    const next: TestCase = {
      id: 'test/next',
      title: 'reads the clock',
      rules: ['SIGNIN-EXCHANGE'],
      needs: ['hook:clock'],
      async run(t) {
        const before = await t.hook.now();
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        const after = await t.hook.now();
        t.check(
          'SIGNIN-EXCHANGE',
          'the clock moved only by real time',
          finding(after.getTime() - before.getTime() < 60_000, '< 60 s', `${after.getTime() - before.getTime()} ms`),
        );
      },
    };
    try {
      const result = await runConformance({
        target: session.target,
        tests: [slow, next],
        only: ['SIGNIN-IDLE-EXPIRY', 'SIGNIN-EXCHANGE'],
        seed: 1,
        numRuns: 1,
        path: undefined,
        runId: session.runId,
        http: session.http,
        redactor: session.redactor,
        transcript: session.transcript,
        testTimeoutMs: 2_000,
      });
      const idle = result.rules.find((r) => r.id === 'SIGNIN-IDLE-EXPIRY')!;
      expect(idle.status).toBe('error');
      expect(idle.reason).toMatch(/did not finish within/);
      expect(idle.checks).toEqual([]);
      expect(result.rules.find((r) => r.id === 'SIGNIN-EXCHANGE')!.status).toBe('passed');
      expect(String(lateAdvance)).toMatch(/abandoned/);
    } finally {
      await session.close();
    }
  });
});
