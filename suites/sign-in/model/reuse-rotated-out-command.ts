/**
 * ReuseRotatedOut: sends the most recently rotated-out token again. The spec does not say what
 * happens (Keycloak-style servers refuse it and may end the whole chain; others accept it until it
 * expires), so nothing is checked here: the chain is marked tainted and later exchanges that the
 * table calls valid may go either way, the model following the target.
 */
import { afterReuse, hasEnded, type LifecycleModel } from './model.js';
import type { LifecycleCommand, LifecycleReal } from './system.js';

export class ReuseRotatedOutCommand implements LifecycleCommand {
  check(m: Readonly<LifecycleModel>): boolean {
    return !hasEnded(m) && m.rotations > 0;
  }

  async run(m: LifecycleModel, r: LifecycleReal): Promise<void> {
    const seen = await r.system.reuseRotatedOut();
    afterReuse(m, seen.success);
  }

  toString(): string {
    return 'send a rotated-out token again';
  }
}
