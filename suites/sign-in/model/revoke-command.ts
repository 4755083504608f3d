/**
 * Revoke: the chain's current token, then one exchange of it. An active token must be revoked
 * with 200 and an empty body, and is refused with 400 invalid_grant from then on. For a token that
 * may already be dead the spec gives no revoke answer, so only a 200 counts as "revoked" and the
 * revoke answer itself is not checked.
 */
import { fmt, hasEnded, predictExchange, type LifecycleModel } from './model.js';
import { exchangeAndJudge, type LifecycleCommand } from './exchange-command.js';
import type { LifecycleReal } from './system.js';

export class RevokeCommand implements LifecycleCommand {
  check(m: Readonly<LifecycleModel>): boolean {
    return !hasEnded(m);
  }

  async run(m: LifecycleModel, r: LifecycleReal): Promise<void> {
    const active = predictExchange(m) === 'valid';
    const seen = await r.system.revoke();
    if (active) {
      const at = `revoke of an active token at ${fmt(m.now - m.generatedAt)} after generation`;
      r.check('SIGNIN-REVOKE', `${at}: status`, seen.status === 200, '200', seen.summary);
      r.check('SIGNIN-REVOKE', `${at}: body`, seen.emptyBody, 'an empty body', seen.summary);
    }
    if (seen.status === 200) m.revoked = true;
    await exchangeAndJudge(m, r, 'exchange after revoke');
  }

  toString(): string {
    return 'Revoke';
  }
}
