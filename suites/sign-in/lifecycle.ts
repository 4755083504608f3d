/**
 * The model-based lifecycle property (spec §3, §8): random sequences of Exchange, AdvanceClock,
 * KeepUsing, UseAccessToken, Revoke, DisableUser, ReuseRotatedOut and NewToken, each checked
 * against the plain model in ./model/ at the 300-s, 30-day and 90-day boundaries with tolerance.
 * Every run starts with a fresh user and token (the target's clock only moves forward). A failed
 * postcondition names its precise rule (e.g. SIGNIN-IDLE-EXPIRY) inside the SIGNIN-LIFECYCLE
 * verdict, with the seed and path to replay it.
 */
import fc from 'fast-check';
import type { TestCase } from '../../src/runner/test-case.js';
import { lifecycleCommands, runLifecycle } from './model/commands.js';
import { HttpLifecycleSystem } from './model/http-system.js';
import type { TestPart } from '../../src/runner/needs.js';

/** A failing run is shrunk at most this much: every shrink step replays a run and moves the clock. */
const MAX_SHRINKS = 60;

const DISABLED_USER: TestPart = { rule: 'SIGNIN-LIFECYCLE', title: 'a disabled user in the lifecycle table', needs: ['hook:disable-user'] };
const ACCESS_TOKENS: TestPart = { rule: 'SIGNIN-LIFECYCLE', title: 'access tokens used along the lifecycle table', needs: ['hook:businesses', 'hook:access'] };

export const lifecycle: TestCase = {
  id: 'sign-in/lifecycle',
  title: 'Any sequence of exchanges, clock moves, revocations, disabling and API calls follows the lifecycle table',
  rules: ['SIGNIN-LIFECYCLE'],
  needs: ['hook:clock', 'hook:users', 'hook:api-tokens'],
  parts: [DISABLED_USER, ACCESS_TOKENS],
  async run(t) {
    const tolerances = { clock: t.target.toleranceS, access: t.target.accessToleranceS };
    const canDisable = t.can(DISABLED_USER);
    const canRead = t.can(ACCESS_TOKENS);
    const commands = fc.limitShrink(lifecycleCommands({ tolerances, canDisable, canRead }), MAX_SHRINKS);
    await t.property('SIGNIN-LIFECYCLE', 'the token lifecycle table holds for generated command sequences', commands, (cmds) =>
      runLifecycle(cmds, tolerances, async () => ({
        system: await HttpLifecycleSystem.start(t),
        check: (rule, title, ok, expected, actual) => t.check(rule, title, { ok, expected, actual }),
      })),
    );
  },
};
