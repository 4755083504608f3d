/**
 * UseAccessToken: business search with the access token of the last successful exchange,
 * optionally after a clock move. Within 300 s it works, after 300 s it is refused with 401
 * (spec §3, §8), judged with the access-token tolerance. "Works" means the search lists the
 * business the token's user reads (the system grants one); a 403 or an empty list does not.
 */
import { hasEnded, predictAccess, secondsFor, stepText, type ClockStep, type LifecycleModel, type Tolerances } from './model.js';
import { wait } from './exchange-command.js';
import type { LifecycleCommand, LifecycleReal } from './system.js';
import { formatDuration } from '../../../src/text/duration.js';

export class UseAccessTokenCommand implements LifecycleCommand {
  constructor(
    readonly after: ClockStep | undefined,
    private readonly tolerance: Tolerances,
  ) {}

  check(m: Readonly<LifecycleModel>): boolean {
    return !hasEnded(m) && m.accessIssuedAt !== undefined;
  }

  async run(m: LifecycleModel, r: LifecycleReal): Promise<void> {
    if (this.after) await wait(m, r, secondsFor(this.after, m));
    const prediction = predictAccess(m);
    const age = `API call ${formatDuration(m.now - (m.accessIssuedAt ?? 0))} after the access token was issued`;
    const seen = await r.system.useAccessToken();
    const refused = seen.status === 401;
    if (prediction === 'valid') r.check('ACCESS-TOKEN-LIFETIME', `${age}: it works`, seen.listsData, "200 listing the user's business", seen.summary);
    else if (prediction === 'invalid') r.check('ACCESS-TOKEN-LIFETIME', `${age}: expired`, refused, '401', seen.summary);
    else
      r.check(
        'ACCESS-TOKEN-LIFETIME',
        `${age}: inside a tolerance window, or the token's grant has ended`,
        seen.listsData || refused || seen.status === 403,
        "200 listing the user's business, 401 or 403",
        seen.summary,
      );
    if (refused) m.accessRefused = true;
  }

  toString(): string {
    return `call the API with the access token${this.after ? ` after moving the clock ${stepText(this.after, this.tolerance)}` : ''}`;
  }
}
