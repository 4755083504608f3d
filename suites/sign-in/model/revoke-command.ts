/**
 * Revoke: the chain's current token while it is active, then one exchange of it. Revoke answers
 * 200 with an empty body, and the token is refused with 400 invalid_grant from then on.
 */
import { predictExchange, type LifecycleModel } from './model.js';
import { exchangeAndJudge } from './exchange-command.js';
import type { LifecycleCommand, LifecycleReal } from './system.js';
import { formatDuration } from '../../../src/text/duration.js';

export class RevokeCommand implements LifecycleCommand {
  /** Only an active token: what revoking an expired one answers, the spec does not say. */
  check(m: Readonly<LifecycleModel>): boolean {
    return predictExchange(m) === 'valid';
  }

  async run(m: LifecycleModel, r: LifecycleReal): Promise<void> {
    const seen = await r.system.revoke();
    const at = `revoke of an active token at ${formatDuration(m.now - m.generatedAt)} after generation`;
    r.check('SIGNIN-REVOKE', `${at}: status`, seen.status === 200, '200', seen.summary);
    r.check('SIGNIN-REVOKE', `${at}: body`, seen.emptyBody, 'an empty body', seen.summary);
    m.revoked = true;
    await exchangeAndJudge(m, r, 'exchange after revoke');
  }

  toString(): string {
    return 'revoke the token';
  }
}
