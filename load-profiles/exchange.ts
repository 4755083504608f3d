/**
 * `exchange`: the sign-in server's token exchange, as fast as it answers. Each connection owns one
 * chain: every request sends the chain's current API token, every 200 replaces it with the
 * returned refresh_token (spec §5 step 4: "Store the returned refresh_token over the stored one").
 *
 * A 400 invalid_grant on a chain's current token means the server lost a rotation: the chain is
 * reported ("rotation broke under load") and its connection closes. A 200 that hands back the very
 * refresh_token it was sent is no rotation at all: it fails the run too (as a malformed answer).
 *
 * On Artillery, each virtual user gets a fresh user and API token through the test hook and then
 * follows the same conversation.
 */
import { ChainConversation, chainAt, LoadChain } from '../src/load/chains/chain.js';
import { LOAD_DEFAULTS } from '../src/load/defaults.js';
import type { Conversation, LoadRequest, Tally } from '../src/load/engine/engine.js';
import type { AnswerOutcome } from '../src/load/engine/recorder.js';
import type { LoadProfile } from '../src/load/profile.js';
import type { Endpoint } from '../src/load/engine/target.js';
import { RaceProbe, type RaceSettings } from './race-probe.js';
import { exchangeRequest, judgeExchange, NOT_ROTATED } from './wire.js';

/** One chain exchanged again and again. Also used by the benchmark. */
export class ExchangeConversation extends ChainConversation implements Conversation {
  private readonly probe: RaceProbe | undefined;
  /** The request in flight is the race probe's. */
  private probing = false;

  constructor(
    chain: LoadChain,
    private readonly identity: Endpoint,
    private readonly clientId: string,
    private readonly tally: Tally,
    /** Set on the chains that probe races (load-profiles/race-probe.ts). */
    race?: RaceSettings,
  ) {
    super(chain);
    this.probe = race ? new RaceProbe(chain, race, tally) : undefined;
  }

  next(): LoadRequest {
    this.probing = this.probe?.due === true;
    if (this.probing) return this.probe!.next(this.identity, this.clientId);
    return exchangeRequest(this.identity, this.clientId, this.chain.token);
  }

  answer(status: number, body: string, retryAfter = false): AnswerOutcome {
    if (this.probing) return this.probe!.answer(status, body, retryAfter).outcome;
    return answerExchange(this.chain, this.tally, status, body).outcome;
  }

  lost(): void {
    if (this.probing) this.probe!.lost();
    else this.chain.uncertain = true;
  }
}

/** Applies an exchange answer to a chain; returns the outcome and, on success, the access token. */
export function answerExchange(
  chain: LoadChain,
  tally: Tally,
  status: number,
  body: string,
): { outcome: AnswerOutcome; accessToken?: string; expiresIn?: number } {
  const a = judgeExchange(status, body);
  switch (a.kind) {
    case 'rotated':
      if (a.refreshToken === chain.token) {
        chain.uncertain = false;
        return { outcome: { kind: 'malformed', detail: NOT_ROTATED }, accessToken: a.accessToken, expiresIn: a.expiresIn };
      }
      rotate(chain, tally, a.refreshToken);
      return { outcome: { kind: 'ok' }, accessToken: a.accessToken, expiresIn: a.expiresIn };
    case 'malformed':
      // Without a readable refresh_token the chain cannot know its next token: it ends here.
      if (a.refreshToken === undefined) chain.ended = true;
      else rotate(chain, tally, a.refreshToken);
      return { outcome: { kind: 'malformed', detail: a.detail } };
    case 'invalid_grant':
      chain.ended = true;
      return { outcome: { kind: 'broken', cause: chain.uncertain ? 'lost' : 'rotation', error: `${status} invalid_grant` } };
    case 'refused':
      return { outcome: { kind: 'non2xx' } };
  }
}

export { NOT_ROTATED } from './wire.js';

function rotate(chain: LoadChain, tally: Tally, refreshToken: string): void {
  if (refreshToken !== chain.token) {
    chain.token = refreshToken;
    chain.rotations++;
    tally.rotation();
  }
  chain.uncertain = false;
}

export const exchangeProfile: LoadProfile = {
  name: 'exchange',
  title: 'sign-in token exchange, one rotating API-token chain per connection',
  defaultThresholds: LOAD_DEFAULTS.thresholds,
  kinds: ['exchange'],
  async prepare(ctx) {
    const { target } = ctx.session;
    const identity = await ctx.resolve(target.identityUrl, 'sign-in server');
    const set = await ctx.apiTokenChains('exchange');
    const race = await ctx.raceProbe(set);
    return {
      endpoints: [identity],
      connections: set.chains.length,
      chains: set.source,
      race: race.result,
      conversation: (index, tally) =>
        new ExchangeConversation(
          chainAt(set.chains, index),
          identity,
          target.clientId,
          tally,
          index < race.chains ? { judged: race.judged, index } : undefined,
        ),
      ...(set.checkpoint ? { checkpoint: (final: boolean) => set.checkpoint!(final) } : {}),
    };
  },
  artillery: {
    async vu(v) {
      const { email, apiToken } = await v.hookUserWithApiToken();
      return new ExchangeConversation(new LoadChain(`virtual user (${email})`, apiToken, undefined), v.identity, v.clientId, v.tally);
    },
  },
};
