/**
 * AdvanceClock: moves the target's clock (hook) by a fixed amount, or to just inside / just
 * outside one of the limits as the model sees them now ("to the 30-day unused limit + tol").
 * A move that would go nowhere (the point aimed at is past) is skipped.
 */
import { hasEnded, secondsFor, stepText, type ClockStep, type LifecycleModel, type Tolerances } from './model.js';
import { wait } from './exchange-command.js';
import type { LifecycleCommand, LifecycleReal } from './system.js';

export class AdvanceClockCommand implements LifecycleCommand {
  constructor(
    readonly step: ClockStep,
    private readonly tolerance: Tolerances,
  ) {}

  check(m: Readonly<LifecycleModel>): boolean {
    return !hasEnded(m) && secondsFor(this.step, m) > 0;
  }

  async run(m: LifecycleModel, r: LifecycleReal): Promise<void> {
    await wait(m, r, secondsFor(this.step, m));
  }

  toString(): string {
    return `move the clock ${stepText(this.step, this.tolerance)}`;
  }
}
