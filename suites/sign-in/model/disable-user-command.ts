/**
 * DisableUser: the token's user is disabled through the hook, then one exchange: the token is
 * unusable from then on (400 invalid_grant).
 */
import { predictExchange, type LifecycleModel } from './model.js';
import { exchangeAndJudge } from './exchange-command.js';
import type { LifecycleCommand, LifecycleReal } from './system.js';

export class DisableUserCommand implements LifecycleCommand {
  /** Only while the token is active: disabling the user of a dead token shows nothing. */
  check(m: Readonly<LifecycleModel>): boolean {
    return predictExchange(m) === 'valid';
  }

  async run(m: LifecycleModel, r: LifecycleReal): Promise<void> {
    await r.system.disableUser();
    m.disabled = true;
    await exchangeAndJudge(m, r, 'exchange after disabling the user');
  }

  toString(): string {
    return 'disable the user';
  }
}
