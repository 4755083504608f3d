/**
 * DisableUser: the token's user is disabled through the hook, then one exchange: the token is
 * unusable from then on (400 invalid_grant).
 */
import { hasEnded, type LifecycleModel } from './model.js';
import { exchangeAndJudge, type LifecycleCommand } from './exchange-command.js';
import type { LifecycleReal } from './system.js';

export class DisableUserCommand implements LifecycleCommand {
  check(m: Readonly<LifecycleModel>): boolean {
    return !hasEnded(m);
  }

  async run(m: LifecycleModel, r: LifecycleReal): Promise<void> {
    await r.system.disableUser();
    m.disabled = true;
    await exchangeAndJudge(m, r, 'exchange after disabling the user');
  }

  toString(): string {
    return 'DisableUser';
  }
}
