/**
 * Exchanges of one token sent at the same moment (spec §3): they must end as the same exchanges
 * would one at a time, under the policy the server shows one at a time for a rotated-out token.
 * A server that reads a token, waits for its store and writes without looking again forks a chain:
 * every overlapping exchange succeeds and each returned token stays usable (CVE-2026-1035).
 *
 * First the policy, one at a time, on a fresh token tack owns (`src/checks/race.ts`): the token
 * exchanged 8 times in a row, then every token returned tried newest first; where that reads
 * `limited`, a second probe whose reuses come after a pause tells a count from a time window (a
 * window: observed only). Then rounds of 2, 3 or 8 exchanges of one token, fresh or the chain's
 * after rotations, each on its own connection, their last bytes sent together
 * (`src/harness/together.ts`); every token a round returned is tried afterwards, then the presented
 * token once more, and the round is judged against the bounds the policy puts on it. Every token returned is in the run's ledger
 * (`IdentityClient.exchange`), so the run revokes all of them however many a fork made.
 *
 * Observed, never failed (no one-at-a-time order is the obvious one): a revoke and an exchange of
 * one token sent together, a disable and an exchange (with the hook), and two partner refreshes of
 * one partner refresh token.
 *
 * Never on the token file's token: forking or reusing it is not tack's to do (need `own-token`).
 */
import type { Exchanged } from '../../src/harness/clients/identity.js';
import type { TestContext } from '../../src/runner/test-context.js';
import type { TestCase } from '../../src/runner/test-case.js';
import { Together } from '../../src/harness/together.js';
import { isExchanged, isInvalidGrant } from '../../src/checks/oauth.js';
import {
  aliveAtMost,
  boundsOf,
  countBased,
  describePolicy,
  exchangedAtMost,
  type ExchangesSeen,
  policyOf,
  presentedMustBeRefused,
  presentedRefusedAfter,
  type ReusePolicy,
} from '../../src/checks/race.js';
import { plural } from '../../src/text/plural.js';

/** Exchanges of one token in the one-at-a-time probe. */
const BATCH = 8;
/**
 * The rounds judged with the hook's tokens: how many exchanges of one token each sends together,
 * and how many times the chain was rotated first (0: a fresh token). A server may fork only at one
 * width, or only tokens it issued by rotation: the rounds vary both.
 */
const ROUNDS: readonly Round[] = [
  { width: 2, rotations: 0 },
  { width: 8, rotations: 1 },
  { width: 2, rotations: 2 },
  { width: 3, rotations: 1 },
  { width: 8, rotations: 0 },
];
/** Through the token page each token costs a pass in the browser. */
const PAGE_ROUNDS: readonly Round[] = [
  { width: 8, rotations: 0 },
  { width: 2, rotations: 1 },
];
/** Rounds of each observation (1 through the page). */
const OBSERVED = 3;

export const rotationAtomic: TestCase = {
  id: 'sign-in/rotation-atomic',
  title: 'Exchanges of one token sent at the same moment end as they would one at a time',
  rules: ['SIGNIN-ROTATION-ATOMIC'],
  needs: ['own-token'],
  async run(t) {
    const { policy, email } = await sequentialPolicy(t);
    if (policy !== undefined) {
      const rounds = t.tokens.fromHook ? ROUNDS : PAGE_ROUNDS;
      for (const [i, round] of rounds.entries()) await judgeRound(t, policy, round, `round ${i + 1} of ${rounds.length}`);
    }
    const observed = t.tokens.fromHook ? OBSERVED : 1;
    await observeRevokeRace(t, observed);
    if (t.tokens.fromHook && t.hook.has('disable-user')) await observeDisableRace(t, observed);
    if (t.target.partner) await observePartnerRefreshPair(t, email);
  },
};

/** The policy one exchange at a time shows (observed), or undefined when it shows none (the rule is then not checked); and whose token it was. */
async function sequentialPolicy(t: TestContext): Promise<{ policy: ReusePolicy | undefined; email: string }> {
  const chain = await t.tokens.own();
  const token = chain.current;
  const results: Exchanged[] = [];
  const started = Date.now();
  let firstRefusalMs: number | undefined;
  for (let i = 0; i < BATCH; i++) {
    const result = await t.identity.exchange(token);
    results.push(result);
    if (i === 0 && !isExchanged(result)) break;
    if (firstRefusalMs === undefined && isInvalidGrant(result.res)) firstRefusalMs = Date.now() - started;
  }
  const returned = returnedTokens(results);
  const alive = await stillExchanging(t, [...returned].reverse());
  const seen = seenOf(results, alive.filter(Boolean).length, BATCH);
  const policy = policyOf(seen);
  const what = `one at a time: ${plural(BATCH, 'exchange')} of one token, the first rotating it`;
  if ('unknown' in policy) {
    t.unverified('SIGNIN-ROTATION-ATOMIC', 'the policy for a rotated-out token, one exchange at a time', policy.unknown);
    return { policy: undefined, email: chain.email };
  }
  t.observe(
    'SIGNIN-ROTATION-ATOMIC',
    `${what}: ${seen.exchanged} returned a token, ${seen.alive} of those still exchanged afterwards: ${describePolicy(policy)}`,
  );
  if (policy.kind === 'limited' && !countBased(policy, await pausedReuses(t, firstRefusalMs ?? Date.now() - started))) {
    t.unverified(
      'SIGNIN-ROTATION-ATOMIC',
      'exchanges of one token sent together',
      'one at a time, a rotated-out token was accepted a different number of times when its reuses came after a pause: ' +
        'the reuses depend on time (a window after rotation), not on a count, so no bound on a batch can be read from them; tack only observes',
    );
    return { policy: undefined, email: chain.email };
  }
  if (policy.kind === 'unlimited') {
    t.unverified(
      'SIGNIN-ROTATION-ATOMIC',
      'exchanges of one token sent together',
      'one at a time, a rotated-out token is accepted again and every token returned stays usable: no outcome of a batch exceeds that, so tack only observes',
    );
  }
  return { policy, email: chain.email };
}

interface Round {
  /** Exchanges of one token sent together. */
  readonly width: number;
  /** Exchanges of the chain one at a time before it (0: the token is fresh). */
  readonly rotations: number;
}

/**
 * The reuses a rotated-out token gets when they come only after `pauseMs` (as long as the first
 * probe took to reach its first refusal, so a time window after rotation has closed): a fresh
 * token exchanged once, then presented BATCH - 1 times more after the pause.
 */
async function pausedReuses(t: TestContext, pauseMs: number): Promise<number> {
  const token = (await t.tokens.own()).current;
  if (!isExchanged(await t.identity.exchange(token))) return -1;
  await new Promise((resolve) => setTimeout(resolve, pauseMs));
  let reuses = 0;
  for (let i = 1; i < BATCH; i++) if (isExchanged(await t.identity.exchange(token))) reuses++;
  return reuses;
}

/**
 * One round: a token (fresh, or the chain's after some rotations) exchanged `width` times at once,
 * every token returned tried afterwards, judged against the policy's bounds; then the presented
 * token once more, last (under `ends-chain` presenting it may end the chain).
 */
async function judgeRound(t: TestContext, policy: ReusePolicy, { width, rotations }: Round, round: string): Promise<void> {
  const chain = await t.tokens.own();
  for (let i = 0; i < rotations; i++) {
    if (!isExchanged(await chain.exchange())) {
      t.observe('SIGNIN-ROTATION-ATOMIC', `${round}: the chain's exchange ${i + 1} of ${rotations} before the batch returned no token; round not judged`);
      return;
    }
  }
  const token = chain.current;
  const batch = new Together(width);
  const results = await Promise.all(Array.from({ length: width }, () => t.identity.exchange(token, { gate: batch.gate() })));
  const returned = returnedTokens(results);
  const alive = await stillExchanging(t, returned);
  const seen = seenOf(results, alive.filter(Boolean).length, width);
  const bounds = boundsOf(policy, seen);
  const age = rotations === 0 ? 'a fresh token' : `a token after ${plural(rotations, 'rotation')}`;
  const what = `${round}: ${plural(width, 'exchange')} of ${age} sent together`;
  const which = whichAlive(alive);
  const oneAtATime = `as one at a time, where ${describePolicy(policy)}`;
  if (bounds.exchanged !== undefined) {
    t.check('SIGNIN-ROTATION-ATOMIC', `${what}: no more tokens returned ${oneAtATime}`, exchangedAtMost(seen, bounds.exchanged, which));
  }
  if (bounds.alive !== undefined) {
    t.check('SIGNIN-ROTATION-ATOMIC', `${what}: no more of the tokens returned stay usable ${oneAtATime}`, aliveAtMost(seen, bounds.alive, which));
  }
  if (presentedMustBeRefused(policy, seen)) {
    const again = isExchanged(await t.identity.exchange(token));
    t.check('SIGNIN-ROTATION-ATOMIC', `${what}: the presented token rotated out ${oneAtATime}`, presentedRefusedAfter(seen, again));
  }
  if (bounds.exchanged === undefined && bounds.alive === undefined) {
    t.observe('SIGNIN-ROTATION-ATOMIC', `${what}: ${seen.exchanged} returned a token, ${seen.alive} of those still exchanged afterwards`);
  }
}

/** A revoke and an exchange of one token at the same moment: does a token the exchange returned outlive the revoke? */
async function observeRevokeRace(t: TestContext, rounds: number): Promise<void> {
  let exchanged = 0;
  let outlived = 0;
  for (let i = 0; i < rounds; i++) {
    const token = (await t.tokens.own()).current;
    const both = new Together(2);
    const [result] = await Promise.all([t.identity.exchange(token, { gate: both.gate() }), t.identity.revoke(token, { gate: both.gate() })]);
    if (!isExchanged(result)) continue;
    exchanged++;
    if ((await stillExchanging(t, [result.refreshToken!]))[0]) outlived++;
  }
  t.observe(
    'SIGNIN-ROTATION-ATOMIC',
    `a revoke and an exchange of one token sent together, ${plural(rounds, 'time')}: the exchange returned a token ${plural(exchanged, 'time')}, ` +
      `and that token outlived the revoke ${plural(outlived, 'time')}`,
  );
}

/** Disabling a user (hook) and exchanging their token at the same moment: does a token returned work afterwards? */
async function observeDisableRace(t: TestContext, rounds: number): Promise<void> {
  let exchanged = 0;
  let usable = 0;
  for (let i = 0; i < rounds; i++) {
    const chain = await t.tokens.own();
    const both = new Together(2);
    const [result] = await Promise.all([t.identity.exchange(chain.current, { gate: both.gate() }), t.hook.disable(chain.email, both.gate())]);
    if (!isExchanged(result)) continue;
    exchanged++;
    if ((await stillExchanging(t, [result.refreshToken!]))[0]) usable++;
  }
  t.observe(
    'SIGNIN-ROTATION-ATOMIC',
    `disabling the user and exchanging their token at the same moment, ${plural(rounds, 'time')}: the exchange returned a token ` +
      `${plural(exchanged, 'time')}, and that token still exchanged after the disable ${plural(usable, 'time')}`,
  );
}

/** Two partner refreshes of one partner refresh token of `email` at the same moment (partner refresh tokens have no revoke call). */
async function observePartnerRefreshPair(t: TestContext, email: string): Promise<void> {
  const minted = await t.partner.mint(email);
  if (minted.refresh === undefined) return;
  const both = new Together(2);
  const pair = await Promise.all([0, 1].map(() => t.partner.refresh(minted.refresh!.value, { gate: both.gate() })));
  const returned = [...new Set(pair.flatMap((p) => (p.refresh === undefined ? [] : [p.refresh.value])))];
  let usable = 0;
  for (const token of returned) if ((await t.partner.refresh(token)).refresh !== undefined) usable++;
  t.observe(
    'SIGNIN-ROTATION-ATOMIC',
    `two partner refreshes of one partner refresh token sent together: ${pair.filter((p) => p.refresh !== undefined).length} of 2 returned ` +
      `a refresh token, ${usable} of those refreshed again afterwards`,
  );
}

/** The distinct refresh tokens the answers returned, in answer order. */
function returnedTokens(results: readonly Exchanged[]): string[] {
  return [...new Set(results.filter(isExchanged).map((r) => r.refreshToken!))];
}

/** Exchanges each token once: whether it still exchanged. */
async function stillExchanging(t: TestContext, tokens: readonly string[]): Promise<boolean[]> {
  const alive: boolean[] = [];
  for (const token of tokens) alive.push(isExchanged(await t.identity.exchange(token)));
  return alive;
}

function seenOf(results: readonly Exchanged[], alive: number, sent: number): ExchangesSeen {
  return {
    sent,
    exchanged: results.filter(isExchanged).length,
    returned: returnedTokens(results).length,
    refused: results.filter((r) => isInvalidGrant(r.res)).length,
    alive,
  };
}

/** Which of the tokens returned (by the order of their answers) still exchanged. */
function whichAlive(alive: readonly boolean[]): string {
  const numbers = alive.flatMap((ok, i) => (ok ? [i + 1] : []));
  if (numbers.length === 0) return '';
  return `still exchanging: token ${numbers.join(', ')} of ${alive.length} returned, by the order of their answers`;
}
