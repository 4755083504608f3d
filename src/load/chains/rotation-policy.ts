/**
 * The race probe's set-up (docs/load.md, "Race probe"): which chains probe, and what the server
 * does one exchange at a time with a token it has just rotated out, seen once before the load on a
 * chain of its own (a fresh hook user and API token, so no load chain is spent on it): the token is
 * exchanged, then presented again `REUSES` times, then each token returned is tried, newest first.
 * Every token it sees goes to the run's ledger (the identity client lists them): all are revoked
 * when the run ends.
 *
 * Only on tokens tack creates through the test hook: a token pool's tokens are the operator's, and a
 * probe may end their chain (a server whose reuse ends the chain) or fork it.
 */
import { IdentityClient } from '../../harness/clients/identity.js';
import type { ChainSet, RaceSetup, SetupContext } from '../profile.js';
import { describeRotationPolicy, forkFails, rotationPolicyOf, probingChains, type SequentialSeen } from '../race.js';

/** Presentations of the rotated-out token after the first exchange. */
const REUSES = 3;

export async function raceSetup(ctx: SetupContext, set: ChainSet, share: number): Promise<RaceSetup> {
  const off = (seen: string): RaceSetup => ({ chains: 0, policy: undefined, judged: false, result: { share, chains: 0, policy: null, seen, judged: false } });
  if (share <= 0) return off('off (--no-race-probe)');
  const { hook } = ctx;
  if (set.source !== 'hook' || !hook) {
    const why = 'off: the token pool holds your tokens, and a probe may end or fork a chain; it runs on tokens tack creates through the test hook';
    ctx.say(`race probe ${why}`);
    return off(why);
  }
  const { target, http, redactor, ledger } = ctx.session;
  const identity = new IdentityClient(http, redactor, target.identityUrl, target.clientId, ledger);
  const email = ctx.names.email('race');
  await hook.createUser(target.tenant, { email, ...ctx.names.person(), signIn: 'direct' });
  const token = await hook.apiToken(target.tenant, email);
  const seen = await oneAtATime(identity, token);
  const policy = rotationPolicyOf(seen);
  const counts =
    `one at a time, ${seen.sent} exchanges of one token (the first rotating it): ${seen.exchanged} returned a token, ` +
    `${seen.alive} of those still exchanged afterwards`;
  if (typeof policy !== 'string') {
    const why = `off: ${counts}; no policy shows (${policy.unknown})`;
    ctx.say(`race probe ${why}`);
    return off(why);
  }
  const chains = probingChains(set.chains.length, share);
  const judged = forkFails(policy);
  const words = `${counts}: ${describeRotationPolicy(policy)}`;
  ctx.say(
    `race probe: ${chains} chain(s) send their token twice at the same moment now and then; ${words}; a fork ${judged ? 'fails the run' : 'is observed'}`,
  );
  return { chains, policy, judged, result: { share, chains, policy, seen: words, judged } };
}

async function oneAtATime(identity: IdentityClient, token: string): Promise<SequentialSeen> {
  const returned: string[] = [];
  let refused = 0;
  let sent = 0;
  for (let i = 0; i <= REUSES; i++) {
    const answer = await identity.exchange(token);
    sent++;
    if (answer.refreshToken !== undefined && answer.refreshToken !== token) returned.push(answer.refreshToken);
    else if (answer.res.status === 400 && answer.error === 'invalid_grant') refused++;
    if (i === 0 && returned.length === 0) break;
  }
  let alive = 0;
  for (const t of [...returned].reverse()) if ((await identity.exchange(t)).refreshToken !== undefined) alive++;
  return { sent, exchanged: returned.length, refused, alive };
}
