/**
 * NewToken: a user generates a new API token (the first row of the lifecycle table) and the run
 * goes on with it; the clock is where the previous chain left it. A run thus lives several chain
 * lives, and each can end at a different boundary. Only drawn once the current chain has ended
 * (every other command is skipped then).
 */
import { afterNewToken, hasEnded, type LifecycleModel } from './model.js';
import type { LifecycleCommand, LifecycleReal } from './system.js';

export class NewTokenCommand implements LifecycleCommand {
  check(m: Readonly<LifecycleModel>): boolean {
    return hasEnded(m);
  }

  async run(m: LifecycleModel, r: LifecycleReal): Promise<void> {
    await r.system.newToken();
    afterNewToken(m);
  }

  toString(): string {
    return 'generate a new token (for a new user)';
  }
}
