/**
 * The race probe's policy (docs/load.md, "Race probe"): what the server does, one exchange at a
 * time, with a token it has just rotated out, read from counts (never tokens), and whether a fork
 * fails the run under it. Pure functions: the exchanges that show it are sent by
 * chains/rotation-policy.ts, the probe itself is load-profiles/race-probe.ts.
 *
 * The same reading as `tack run`'s SIGNIN-ROTATION-ATOMIC: what one at a time shows is the server's
 * policy (the spec leaves it open); exchanges of one token sent together must end as some order of
 * them, one at a time, would under it. Two exchanges of one token, one at a time, leave at most one
 * usable token under `refused`, `ends-chain` and `replaces`: there two usable tokens are a fork, a
 * correctness failure. Under `limited` and `unlimited` they may leave two: the probe only observes.
 */
import { policyOf as sequentialPolicy } from '../checks/race.js';
import type { RotationPolicy } from './types.js';

/** What one-at-a-time exchanges of one fresh token gave: the first rotates it, the rest present it rotated out. */
export interface SequentialSeen {
  /** Exchanges of the one token sent. */
  readonly sent: number;
  /** Answers 200 with a refresh token. */
  readonly exchanged: number;
  /** Answers 400 invalid_grant. */
  readonly refused: number;
  /** Tokens returned that exchanged when tried afterwards. */
  readonly alive: number;
}

/** The policy one-at-a-time exchanges show, or why they show none: `tack run`'s reading (src/checks/race.ts), without its count of reuses. */
export function rotationPolicyOf(seen: SequentialSeen): RotationPolicy | { readonly unknown: string } {
  const policy = sequentialPolicy({ ...seen, returned: seen.exchanged });
  return 'unknown' in policy ? policy : policy.kind;
}

/** Whether two usable tokens after two exchanges of one token fail the run under `policy`. */
export function forkFails(policy: RotationPolicy): boolean {
  return policy === 'refused' || policy === 'ends-chain' || policy === 'replaces';
}

/** The policy in words, as the summary and the page say it. */
export function describeRotationPolicy(policy: RotationPolicy): string {
  switch (policy) {
    case 'refused':
      return 'a rotated-out token is refused, and the chain goes on';
    case 'ends-chain':
      return 'a rotated-out token is refused, and presenting it ends the whole chain';
    case 'replaces':
      return 'a rotated-out token is accepted again, and each reuse ends the token it replaced';
    case 'limited':
      return 'a rotated-out token is accepted a few more times, and the tokens returned stay usable';
    case 'unlimited':
      return 'a rotated-out token is accepted again, and the tokens returned stay usable';
  }
}

/**
 * Chains that probe at least, when the probe is on: a probe may miss the window on a busy machine,
 * and a miss on a server whose reuse ends the chain ends that chain's probing.
 */
const MIN_PROBING_CHAINS = 3;

/** The first `count` of `connections` chains probe: `share` of them, at least MIN_PROBING_CHAINS when the share is above 0. */
export function probingChains(connections: number, share: number): number {
  if (share <= 0 || connections <= 0) return 0;
  return Math.min(connections, Math.max(MIN_PROBING_CHAINS, Math.round(connections * share)));
}
