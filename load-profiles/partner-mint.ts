/**
 * `partner-mint`: `POST /api/admin/authentication/token` with the partner key, for a few users
 * created with the same key, round-robin across connections. A 2xx must carry an access token and
 * a refresh token (spec §4.1: "access token and refresh token scoped to that user").
 *
 * On Artillery, each virtual user creates its own user with the partner key (the token fields
 * found on one mint, as `tack load` does) and then follows the same conversation.
 */
import { LOAD_DEFAULTS } from '../src/load/defaults.js';
import type { Conversation, LoadRequest } from '../src/load/engine/engine.js';
import type { LoadProfile, PartnerWire } from '../src/load/profile.js';
import type { AnswerOutcome } from '../src/load/engine/recorder.js';
import { partnerRequest, partnerTokens } from './wire.js';

class MintConversation implements Conversation {
  readonly rotations = 0;
  readonly ended = false;
  private readonly request: LoadRequest;

  constructor(
    readonly label: string,
    private readonly wire: PartnerWire,
    username: string,
  ) {
    this.request = partnerRequest(wire, 'token', { username });
  }

  next(): LoadRequest {
    return this.request;
  }

  answer(status: number, body: string): AnswerOutcome {
    if (status < 200 || status > 299) return { kind: 'non2xx' };
    const { access, refresh } = partnerTokens(this.wire, body);
    if (access === undefined) return { kind: 'malformed', detail: `mint ${status} without an access token at ${this.wire.accessField}` };
    if (refresh === undefined) return { kind: 'malformed', detail: 'mint answer without a refresh token' };
    return { kind: 'ok' };
  }

  lost(): void {
    /* no chain: nothing to lose */
  }
}

export const partnerMintProfile: LoadProfile = {
  name: 'partner-mint',
  title: 'partner key: mint user tokens (POST /api/admin/authentication/token)',
  defaultThresholds: LOAD_DEFAULTS.thresholds,
  kinds: ['mint'],
  async prepare(ctx) {
    const { wire, users } = await ctx.partner('partner-mint');
    return {
      endpoints: [wire.tenant],
      connections: ctx.connections,
      chains: 'partner',
      conversation: (index) => new MintConversation(`connection ${index + 1}`, wire, users[index % users.length]!),
    };
  },
  artillery: {
    async vu(v) {
      const { user, wire } = await v.partnerUser();
      return new MintConversation(`virtual user (${user})`, wire, user);
    },
  },
};
