/**
 * Exchange: the chain's current token at the sign-in server, optionally after a clock move
 * ("a script that wakes up at the 30-day limit + tol and exchanges"). The model predicts the answer
 * from the lifecycle table (active → 200 with a new refresh_token; expired, revoked, disabled → 400
 * invalid_grant); inside a tolerance window either is accepted and the model follows the target.
 */
import {
  afterExchange,
  hasEnded,
  predictExchange,
  reasonOfRefusal,
  ruleOfRefusal,
  ruleOfUnexpectedRefusal,
  secondsFor,
  stepText,
  type ClockStep,
  type LifecycleModel,
  type Tolerances,
} from './model.js';
import type { ExchangeSeen, LifecycleCommand, LifecycleReal } from './system.js';
import { formatDuration } from '../../../src/text/duration.js';

function isInvalidGrantSeen(seen: ExchangeSeen): boolean {
  return seen.status === 400 && seen.error === 'invalid_grant';
}

/** Moves the target's clock and the model's by the same amount. */
export async function wait(m: LifecycleModel, r: LifecycleReal, seconds: number): Promise<void> {
  if (seconds <= 0) return;
  await r.system.advance(seconds);
  m.now += seconds;
}

/** One exchange, judged against the model, then the model updated with what happened. */
export async function exchangeAndJudge(m: LifecycleModel, r: LifecycleReal, what: string): Promise<void> {
  const prediction = predictExchange(m);
  const at = `${what} at ${formatDuration(m.now - m.generatedAt)} after generation, ${formatDuration(m.now - m.lastUsedAt)} after the last use`;
  const seen = await r.system.exchange();
  if (prediction === 'valid') {
    r.check(ruleOfUnexpectedRefusal(m), `${at}: the token is active`, seen.success, '200 with access_token and refresh_token', seen.summary);
  } else if (prediction === 'invalid') {
    r.check(ruleOfRefusal(m), `${at}: ${reasonOfRefusal(m)}`, isInvalidGrantSeen(seen), '400 invalid_grant', seen.summary);
  } else {
    r.check(
      ruleOfRefusal(m),
      `${at}: inside a tolerance window`,
      seen.success || isInvalidGrantSeen(seen),
      '200 with tokens, or 400 invalid_grant',
      seen.summary,
    );
  }
  if (seen.success)
    r.check('SIGNIN-ROTATION', `${at}: a new refresh_token`, seen.rotated, 'a refresh_token different from the one sent', 'the same refresh_token');
  afterExchange(m, seen.success);
}

export class ExchangeCommand implements LifecycleCommand {
  constructor(
    /** Clock move made first, if any. */
    readonly after: ClockStep | undefined,
    private readonly tolerance: Tolerances,
  ) {}

  check(m: Readonly<LifecycleModel>): boolean {
    return !hasEnded(m);
  }

  async run(m: LifecycleModel, r: LifecycleReal): Promise<void> {
    if (this.after) await wait(m, r, secondsFor(this.after, m));
    await exchangeAndJudge(m, r, 'exchange');
  }

  toString(): string {
    return `exchange the token${this.after ? ` after moving the clock ${stepText(this.after, this.tolerance)}` : ''}`;
  }
}
