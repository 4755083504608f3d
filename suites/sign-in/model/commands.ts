/**
 * The model-based lifecycle property: every command, weighted, combined into command lists, and
 * the run of one list against a fresh system (`fc.asyncModelRun`).
 *
 * Reaching a boundary at random takes a clock move to just the right place followed by the right
 * call, so clock moves mostly aim at a limit as the model sees it now (± tolerance), Exchange and
 * UseAccessToken often carry their own clock move, KeepUsing carries a chain, used all along, past
 * the 90-day limit, and Revoke and DisableUser are followed at once by an exchange. Once a chain
 * has ended, NewToken starts the next one, so one run lives several chain lives. Every run ends
 * with one more exchange judged against the final model.
 */
import fc from 'fast-check';
import { AdvanceClockCommand } from './advance-clock-command.js';
import { DisableUserCommand } from './disable-user-command.js';
import { exchangeAndJudge, ExchangeCommand } from './exchange-command.js';
import { KeepUsingCommand } from './keep-using-command.js';
import { NewTokenCommand } from './new-token-command.js';
import { IDLE_LIMIT_S } from '../../../src/spec.js';
import {
  boundaryOffsets,
  boundarySeconds,
  initialModel,
  toleranceFor,
  tolerancesOf,
  type Anchor,
  type ClockStep,
  type LifecycleModel,
  type Tolerances,
} from './model.js';
import { ReuseRotatedOutCommand } from './reuse-rotated-out-command.js';
import { RevokeCommand } from './revoke-command.js';
import { UseAccessTokenCommand } from './use-access-token-command.js';
import type { LifecycleCommand, LifecycleReal } from './system.js';

interface LifecycleOptions {
  /** TACK_CLOCK_TOLERANCE_S and TACK_ACCESS_TOLERANCE_S. */
  readonly tolerances: Tolerances;
  /** The hook can disable users (capability `disable-user`). */
  readonly canDisable: boolean;
  /**
   * Access tokens can be judged: the user reads a business (hook `businesses` and `access`), so a
   * working token is one whose search lists it. Without it UseAccessToken is left out.
   */
  readonly canRead: boolean;
  readonly maxCommands?: number;
  readonly weights?: Partial<CommandWeights>;
}

interface CommandWeights {
  readonly exchange: number;
  readonly advanceClock: number;
  readonly keepUsing: number;
  readonly useAccessToken: number;
  readonly revoke: number;
  readonly reuseRotatedOut: number;
  readonly disableUser: number;
  readonly newToken: number;
}

/** How often each command is drawn, relative to the others. */
const DEFAULT_WEIGHTS: CommandWeights = {
  exchange: 16,
  advanceClock: 2,
  keepUsing: 6,
  useAccessToken: 8,
  revoke: 4,
  reuseRotatedOut: 1,
  disableUser: 4,
  newToken: 16,
};

/**
 * Commands generated per run. Many are skipped (every command but NewToken once a chain has
 * ended, Revoke and DisableUser unless it is active), so a run executes about 15, some 30 HTTP
 * calls, and lives three or four chain lives. Measured against simulated faulty servers (see
 * test/suites/sign-in/model.test.ts), 8 runs find each lifecycle fault for all but about one seed
 * in 300.
 */
const DEFAULT_MAX_COMMANDS = 64;

function anchored(anchor: fc.Arbitrary<Anchor>, tol: Tolerances): fc.Arbitrary<ClockStep> {
  return anchor.chain((a) => fc.constantFrom(...boundaryOffsets(toleranceFor(a, tol))).map((offset): ClockStep => ({ kind: 'to', anchor: a, offset })));
}

/** Clock moves: fixed boundary-aware amounts, or to just inside / outside a limit. */
function clockSteps(tolerances: Tolerances): fc.Arbitrary<ClockStep> {
  const tol = tolerancesOf(tolerances);
  const anchor = fc.oneof(
    { weight: 4, arbitrary: fc.constant<Anchor>('idle') },
    { weight: 1, arbitrary: fc.constant<Anchor>('absolute') },
    { weight: 1, arbitrary: fc.constant<Anchor>('access') },
  );
  return fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom(...boundarySeconds(tol)).map((seconds): ClockStep => ({ kind: 'by', seconds })) },
    { weight: 3, arbitrary: anchored(anchor, tol) },
  );
}

export function lifecycleCommands(options: LifecycleOptions): fc.Arbitrary<CommandList> {
  const tol = tolerancesOf(options.tolerances);
  const w = { ...DEFAULT_WEIGHTS, ...options.weights };
  const none = fc.constant(undefined);
  const exchangeAfter = fc.oneof({ weight: 1, arbitrary: none }, { weight: 2, arbitrary: clockSteps(tol) });
  const useAfter = fc.oneof({ weight: 1, arbitrary: none }, { weight: 4, arbitrary: anchored(fc.constant<Anchor>('access'), tol) });
  // Every exchange of the script is inside 30 days of the previous one; the last lands just past 90 days.
  const keepUsing = fc.tuple(fc.constant(IDLE_LIMIT_S - tol.clock), fc.constantFrom(tol.clock, tol.clock + 1));
  const weighted: fc.WeightedArbitrary<LifecycleCommand>[] = [
    { weight: w.exchange, arbitrary: exchangeAfter.map((after) => new ExchangeCommand(after, tol)) },
    { weight: w.advanceClock, arbitrary: clockSteps(tol).map((step) => new AdvanceClockCommand(step, tol)) },
    { weight: w.keepUsing, arbitrary: keepUsing.map(([every, offset]) => new KeepUsingCommand(every, offset, tol)) },
    { weight: w.revoke, arbitrary: fc.constant(new RevokeCommand()) },
    { weight: w.reuseRotatedOut, arbitrary: fc.constant(new ReuseRotatedOutCommand()) },
    { weight: w.newToken, arbitrary: fc.constant(new NewTokenCommand()) },
  ];
  if (options.canRead) weighted.push({ weight: w.useAccessToken, arbitrary: useAfter.map((after) => new UseAccessTokenCommand(after, tol)) });
  if (options.canDisable) weighted.push({ weight: w.disableUser, arbitrary: fc.constant(new DisableUserCommand()) });
  // A plain array, not fc.commands: fc.commands shrinks by which commands ran in the failing run,
  // which a replay from seed and path (`tack run --seed S --path P`) does not know, so a shrunk
  // counterexample would not replay. noBias: fast-check's bias favours short lists and the first
  // value of each choice; the weights above are meant as they are written.
  const list = fc.array(fc.oneof(...weighted), { maxLength: options.maxCommands ?? DEFAULT_MAX_COMMANDS, size: 'max' });
  return fc.noBias(list).map((commands) => new CommandList(commands));
}

/**
 * The commands of one run. Printed (in a counterexample) in words, as the steps that ran, in order,
 * between the fresh token every run starts with and the final exchange; the commands skipped because
 * their precondition did not hold are only counted.
 */
export class CommandList implements Iterable<LifecycleCommand> {
  private readonly ran = new Set<number>();

  constructor(readonly commands: readonly LifecycleCommand[]) {}

  *[Symbol.iterator](): Iterator<LifecycleCommand> {
    for (const [i, command] of this.commands.entries()) {
      yield {
        check: (m) => command.check(m),
        run: async (m, r) => {
          this.ran.add(i);
          await command.run(m, r);
        },
        toString: () => command.toString(),
      };
    }
  }

  toString(): string {
    const ran = this.commands.filter((_, i) => this.ran.has(i)).map(String);
    const skipped = this.commands.length - ran.length;
    const steps = ['generate a token (for a new user)', ...ran, 'exchange the current token once more (the final exchange)'];
    return `${steps.map((s, i) => `${i + 1}. ${s}`).join('; ')}${skipped > 0 ? ` (${skipped} more steps generated, left out: precondition not met)` : ''}`;
  }

  [fc.toStringMethod](): string {
    return this.toString();
  }
}

/**
 * Runs one generated command list against a fresh system (a new user and token every time), then
 * one final exchange judged against the model.
 */
export async function runLifecycle(commands: Iterable<LifecycleCommand>, tolerances: Tolerances, start: () => Promise<LifecycleReal>): Promise<void> {
  let state: { model: LifecycleModel; real: LifecycleReal } | undefined;
  await fc.asyncModelRun(async () => {
    state = { model: initialModel(tolerances), real: await start() };
    return state;
  }, commands);
  if (state) await exchangeAndJudge(state.model, state.real, 'final exchange');
}
