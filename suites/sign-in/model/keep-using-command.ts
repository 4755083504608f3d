/**
 * KeepUsing: a script that exchanges `every` seconds (inside 30 days) after its last successful
 * exchange, again and again, until just past the 90-day limit (`offset`: tol or tol + 1 s), and
 * exchanges once more there. Each exchange is judged like Exchange: those before 90 days - tol
 * must succeed, the one past 90 days + tol must be refused. It carries a chain to the absolute
 * limit while it is used all along, so a limit that slides with use, or an unused clock that does
 * not restart, shows within one command.
 */
import { ABSOLUTE_LIMIT_S } from '../../../src/spec.js';
import { hasEnded, type LifecycleModel, type Tolerances } from './model.js';
import { exchangeAndJudge, wait } from './exchange-command.js';
import type { LifecycleCommand, LifecycleReal } from './system.js';
import { formatDuration } from '../../../src/text/duration.js';

export class KeepUsingCommand implements LifecycleCommand {
  constructor(
    readonly every: number,
    /** Where the last exchange happens, relative to the 90-day limit. */
    readonly offset: number,
    private readonly tolerance: Tolerances,
  ) {}

  check(m: Readonly<LifecycleModel>): boolean {
    return !hasEnded(m) && m.now - m.generatedAt < ABSOLUTE_LIMIT_S + this.offset;
  }

  async run(m: LifecycleModel, r: LifecycleReal): Promise<void> {
    const end = m.generatedAt + ABSOLUTE_LIMIT_S + this.offset;
    let n = 0;
    while (m.now < end && !m.refused) {
      n += 1;
      // Next run `every` after the last successful one (at once if that is past), never beyond `end`.
      await wait(m, r, Math.min(Math.max(m.lastUsedAt + this.every, m.now), end) - m.now);
      await exchangeAndJudge(m, r, `exchange ${n} of a script running every ${formatDuration(this.every)}`);
    }
  }

  toString(): string {
    const tol = Math.max(1, Math.floor(this.tolerance.clock));
    const size = Math.abs(this.offset);
    const rel = size === tol ? 'tol' : size === tol + 1 ? `tol ${this.offset < 0 ? '-' : '+'} 1 s` : formatDuration(size);
    return `exchange every ${formatDuration(this.every)} until the 90-day limit ${this.offset < 0 ? '-' : '+'} ${rel}`;
  }
}
