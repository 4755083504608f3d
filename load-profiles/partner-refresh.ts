/**
 * `partner-refresh`: `POST /api/admin/authentication/refresh` with the partner key, one chain per
 * connection. Each chain starts with one mint during setup; every 2xx that carries a new refresh
 * token replaces the chain's current one.
 *
 * The spec does not say whether the partner refresh rotates the refresh token: an answer without
 * one, or with the same one, keeps the current token and is counted as a note, never failed.
 * A 400 or 401 on the chain's current refresh token (the one the server itself just returned) is a
 * broken rotation.
 *
 * On Artillery, each virtual user creates its own user with the partner key, mints once for its
 * chain, and then follows the same conversation.
 */
import { TackError } from '../src/harness/errors.js';
import { ChainConversation, chainAt, LoadChain, mapLimit } from '../src/load/chains/chain.js';
import { LOAD_DEFAULTS } from '../src/load/defaults.js';
import type { Conversation, LoadRequest, Tally } from '../src/load/engine/engine.js';
import type { LoadProfile, PartnerWire } from '../src/load/profile.js';
import type { AnswerOutcome } from '../src/load/engine/recorder.js';
import { partnerRequest, partnerTokens } from './wire.js';

const NO_REFRESH_TOKEN = 'without a refresh token tack could find (set TACK_PARTNER_REFRESH_TOKEN_FIELD)';

class RefreshConversation extends ChainConversation implements Conversation {
  constructor(
    chain: LoadChain,
    private readonly wire: PartnerWire,
    private readonly tally: Tally,
  ) {
    super(chain);
  }

  next(): LoadRequest {
    return partnerRequest(this.wire, 'refresh', { refreshToken: this.chain.token });
  }

  answer(status: number, body: string): AnswerOutcome {
    if (status === 400 || status === 401) {
      this.chain.ended = true;
      return { kind: 'broken', cause: this.chain.uncertain ? 'lost' : 'rotation', error: `${status} on the chain's current refresh token` };
    }
    if (status < 200 || status > 299) return { kind: 'non2xx' };
    const { access, refresh } = partnerTokens(this.wire, body);
    if (refresh === undefined) this.tally.note('refresh answer without a refresh token (the current one is kept)');
    else if (refresh === this.chain.token) this.tally.note('refresh returned the same refresh token');
    else {
      this.chain.token = refresh;
      this.chain.rotations++;
      this.tally.rotation();
    }
    this.chain.uncertain = false;
    if (access === undefined) return { kind: 'malformed', detail: `refresh ${status} without an access token at ${this.wire.accessField}` };
    return { kind: 'ok' };
  }

  lost(): void {
    this.chain.uncertain = true;
  }
}

export const partnerRefreshProfile: LoadProfile = {
  name: 'partner-refresh',
  title: 'partner key: refresh user tokens (POST /api/admin/authentication/refresh), one chain per connection',
  defaultThresholds: LOAD_DEFAULTS.thresholds,
  kinds: ['refresh'],
  async prepare(ctx) {
    const { wire, client, users } = await ctx.partner('partner-refresh');
    ctx.say(`minting ${ctx.connections} refresh-token chain(s)`);
    const chains = await mapLimit(
      Array.from({ length: ctx.connections }, (_, i) => users[i % users.length]!),
      16,
      async (user, i) => {
        const minted = await client.mint(user);
        if (!minted.refresh) {
          throw new TackError('TACK_ERR_BAD_RESPONSE', `partner-refresh: minting answered ${minted.res.status} ${NO_REFRESH_TOKEN}`);
        }
        return new LoadChain(`chain ${i + 1} (${user})`, minted.refresh.value, undefined);
      },
    );
    return {
      endpoints: [wire.tenant],
      connections: chains.length,
      chains: 'partner',
      conversation: (index, tally) => new RefreshConversation(chainAt(chains, index), wire, tally),
    };
  },
  artillery: {
    async vu(v) {
      const { user, wire, refreshToken } = await v.partnerUser();
      if (refreshToken === undefined) throw new Error(`partner-refresh: the mint answered ${NO_REFRESH_TOKEN}`);
      return new RefreshConversation(new LoadChain(`virtual user (${user})`, refreshToken, undefined), wire, v.tally);
    },
  },
};
