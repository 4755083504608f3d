/**
 * Exchanges of one token sent at the same moment, judged against what the same exchanges do one
 * at a time (spec §3: the policy for a rotated-out token is the server's; overlap must not change
 * it). Pure functions: the sequential policy read from what tack saw one exchange at a time, the
 * bounds it puts on a batch, and the findings. Token values never appear: tokens are counted.
 *
 * The sequential probe sends one fresh token N times one after another (the first exchange rotates
 * it; the rest present it rotated out), then exchanges each token returned, newest first. Its
 * counts give the policy:
 * - `refused`: one exchange returned a token, and that token still exchanges (Keycloak's
 *   "Refresh Token Max Reuse" 0);
 * - `ends-chain`: one returned a token, and afterwards it no longer exchanges (reuse detection:
 *   presenting a rotated-out token ended the chain);
 * - `limited`: more than one but not all returned a token (reuse accepted up to a count);
 * - `replaces`: all returned a token and at most one of those still exchanges (each reuse ends the
 *   successor it replaces: the reference server's one-step grace);
 * - `unlimited`: all returned a token and several still exchange (nothing bounds a batch).
 */
import { type CountedBound, finding, type Finding } from './finding.js';
import { plural } from '../text/plural.js';

/** What one-at-a-time exchanges of one token gave (the probe), or a batch of them sent together. */
export interface ExchangesSeen {
  /** Exchanges of the one token sent. */
  readonly sent: number;
  /** Answers 200 with a refresh token. */
  readonly exchanged: number;
  /**
   * Different tokens those answers returned: a server may answer requests in flight together with
   * one token (no fork), so a batch is held to a bound on these, not on the answers.
   */
  readonly returned: number;
  /** Answers 400 invalid_grant. */
  readonly refused: number;
  /** Tokens returned (distinct) that exchanged when tried afterwards. */
  readonly alive: number;
}

export type ReusePolicy =
  | { readonly kind: 'refused' }
  | { readonly kind: 'ends-chain' }
  | { readonly kind: 'limited'; readonly reuses: number }
  | { readonly kind: 'replaces' }
  | { readonly kind: 'unlimited' };

/**
 * The policy one-at-a-time exchanges show, or why they show none: the first exchange did not
 * return a token, or an answer was neither a token nor invalid_grant.
 */
export function policyOf(seen: ExchangesSeen): ReusePolicy | { readonly unknown: string } {
  if (seen.exchanged === 0) return { unknown: 'the first exchange of a fresh token returned no token' };
  const other = seen.sent - seen.exchanged - seen.refused;
  if (other > 0) return { unknown: `${plural(other, 'answer')} of ${seen.sent} neither returned a token nor refused with invalid_grant` };
  if (seen.exchanged === 1) return seen.alive > 0 ? { kind: 'refused' } : { kind: 'ends-chain' };
  if (seen.exchanged < seen.sent) return { kind: 'limited', reuses: seen.exchanged - 1 };
  return seen.alive <= 1 ? { kind: 'replaces' } : { kind: 'unlimited' };
}

/** The policy in words, as a report says it. */
export function describePolicy(policy: ReusePolicy): string {
  switch (policy.kind) {
    case 'refused':
      return 'a rotated-out token is refused, and the chain goes on';
    case 'ends-chain':
      return 'a rotated-out token is refused, and presenting it ends the whole chain';
    case 'limited':
      return `a rotated-out token is accepted ${plural(policy.reuses, 'more time')}, then refused`;
    case 'replaces':
      return 'a rotated-out token is accepted again, and each reuse ends the token it replaced';
    case 'unlimited':
      return 'a rotated-out token is accepted again, and the tokens it returned stay usable';
  }
}

interface BatchBounds {
  /** At most this many different tokens the batch may return (undefined: any number). */
  readonly exchanged: number | undefined;
  /** At most this many tokens the batch returned may still exchange afterwards (undefined: any number). */
  readonly alive: number | undefined;
}

/**
 * What a batch may end in: no more than some one-at-a-time order of its exchanges gives under
 * `policy`. Every order of identical exchanges is the same order, so the bound is the probe's:
 * under `ends-chain`, one success at most, and none of its tokens alive once a reuse was refused.
 */
export function boundsOf(policy: ReusePolicy, batch: Pick<ExchangesSeen, 'sent' | 'refused'>): BatchBounds {
  switch (policy.kind) {
    case 'refused':
      return { exchanged: 1, alive: 1 };
    case 'ends-chain':
      return { exchanged: 1, alive: batch.refused > 0 ? 0 : 1 };
    case 'limited':
      return { exchanged: 1 + policy.reuses, alive: undefined };
    case 'replaces':
      return { exchanged: undefined, alive: 1 };
    case 'unlimited':
      return { exchanged: undefined, alive: undefined };
  }
}

/** The batch's exchanges returned at most `bound` different tokens. `which`: the tokens returned that still exchange, in words. */
export function exchangedAtMost(batch: ExchangesSeen, bound: number, which = ''): Finding {
  return withBound(
    finding(
      batch.returned <= bound,
      `at most ${plural(bound, 'token')} returned by the ${batch.sent} exchanges`,
      `${countsOf(batch)}${which === '' ? '' : `; ${which}`}`,
    ),
    { bound, of: 'returned' },
  );
}

/** At most `bound` of the tokens the batch returned still exchange. */
export function aliveAtMost(batch: ExchangesSeen, bound: number, which = ''): Finding {
  return withBound(
    finding(
      batch.alive <= bound,
      bound === 0 ? 'none of the tokens returned still exchanging' : `at most ${plural(bound, 'token')} returned still exchanging`,
      `${countsOf(batch)}${which === '' ? '' : `; ${which}`}`,
    ),
    { bound, of: 'alive' },
  );
}

function countsOf(batch: ExchangesSeen): string {
  return (
    `${batch.exchanged} of ${batch.sent} returned a token${batch.returned < batch.exchanged ? ` (${plural(batch.returned, 'different token')})` : ''} ` +
    `(${batch.refused} refused with invalid_grant), ${batch.alive} of the tokens returned still exchanged afterwards`
  );
}

function withBound(found: Finding, counted: CountedBound): Finding {
  return { ...found, counted };
}

/**
 * Whether the token a batch presented must be refused when tried once more after it: the batch
 * rotated it out, and the policy refuses a rotated-out token (under `limited`, once the batch's
 * different tokens used up its reuses). Under `replaces` and `unlimited` a reuse is allowed.
 */
export function presentedMustBeRefused(policy: ReusePolicy, batch: Pick<ExchangesSeen, 'returned'>): boolean {
  switch (policy.kind) {
    case 'refused':
    case 'ends-chain':
      return batch.returned > 0;
    case 'limited':
      return batch.returned >= 1 + policy.reuses;
    case 'replaces':
    case 'unlimited':
      return false;
  }
}

/**
 * The token a batch presented, tried once more after it, was refused. A server that answers
 * overlapping exchanges with one new token but leaves the presented token live has a second live
 * token beyond the policy's bound: a fork.
 */
export function presentedRefusedAfter(batch: ExchangesSeen, exchangedAgain: boolean): Finding {
  return finding(
    !exchangedAgain,
    'the token the batch presented refused when tried again afterwards (the batch rotated it out)',
    `${countsOf(batch)}; the presented token, tried again, ${exchangedAgain ? 'still exchanged: a live token beyond the bound' : 'was refused'}`,
  );
}

/**
 * Whether the second probe of a `limited` policy, its reuses sent only after a pause as long as
 * the first probe took to reach its first refusal, accepted the same number: if not, the reuses a
 * rotated-out token gets depend on time (a window after rotation), not on a count, and a batch
 * has no bound tack can read from one probe.
 */
export function countBased(first: ReusePolicy, pausedReuses: number): boolean {
  return first.kind !== 'limited' || pausedReuses === first.reuses;
}
