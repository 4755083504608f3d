/**
 * `exchange-search`: a realistic API client (spec §5, steps 2-4). Each connection owns one chain:
 * it exchanges its API token, then calls business search with the access token until the API
 * answers 401 or the token is near expiry (30 s before `expires_in` runs out), then exchanges
 * again and stores the returned refresh_token.
 *
 * A 401 is the expected end of an access token only once the token is at least its lifetime minus
 * the tolerance old (300 s − TACK_ACCESS_TOLERANCE_S, counted from when the exchange was sent, so
 * tack never thinks a token younger than it is); a 401 for a younger token fails the run (the
 * server refused a token it had just issued as valid for 300 s).
 *
 * The sign-in server and the tenant host may be different hosts, ports and schemes (as in
 * production): each has its own connection pool, and a chain's driver sends each call to its own.
 *
 * On Artillery, each virtual user gets a fresh user and API token through the test hook, read
 * access to one new business, and then follows the same conversation.
 */
import { ChainConversation, chainAt, LoadChain, mapLimit } from '../src/load/chains/chain.js';
import { LOAD_DEFAULTS } from '../src/load/defaults.js';
import type { Conversation, LoadRequest, Tally } from '../src/load/engine/engine.js';
import type { LoadProfile } from '../src/load/profile.js';
import type { AnswerOutcome } from '../src/load/engine/recorder.js';
import { sameOrigin, type Endpoint } from '../src/load/engine/target.js';
import { answerExchange } from './exchange.js';
import { RaceProbe, type RaceSettings } from './race-probe.js';
import { exchangeRequest, searchRequest, searchShapeProblem } from './wire.js';
import { ACCESS_TOKEN_S, accessTolerance } from '../src/spec.js';

/** Re-exchange this long before the access token's expiry (spec §5 step 4: "near expiry"). */
const EXPIRY_MARGIN_MS = 30_000;

export class SearchConversation extends ChainConversation implements Conversation {
  private access: string | undefined;
  /** When the exchange that issued `access` was sent: the token is at least this old. */
  private issuedAt = 0;
  private refreshAt = 0;
  private sent: 'exchange' | 'search' | 'probe' = 'exchange';
  private exchangeSentAt = 0;
  private readonly probe: RaceProbe | undefined;

  constructor(
    chain: LoadChain,
    private readonly identity: Endpoint,
    private readonly tenant: Endpoint,
    private readonly clientId: string,
    private readonly tally: Tally,
    /** TACK_ACCESS_TOLERANCE_S. */
    private readonly accessToleranceS: number,
    private readonly now: () => number = Date.now,
    /** Set on the chains that probe races (load-profiles/race-probe.ts). */
    race?: RaceSettings,
  ) {
    super(chain);
    this.probe = race ? new RaceProbe(chain, race, tally) : undefined;
  }

  next(): LoadRequest {
    const now = this.now();
    if (this.access === undefined || now >= this.refreshAt) {
      this.exchangeSentAt = now;
      if (this.probe?.due) {
        this.sent = 'probe';
        return this.probe.next(this.identity, this.clientId);
      }
      this.sent = 'exchange';
      return exchangeRequest(this.identity, this.clientId, this.chain.token);
    }
    this.sent = 'search';
    return searchRequest(this.tenant, this.access);
  }

  answer(status: number, body: string, retryAfter = false): AnswerOutcome {
    if (this.sent !== 'search') {
      const { outcome, accessToken } =
        this.sent === 'probe' ? this.probe!.answer(status, body, retryAfter) : answerExchange(this.chain, this.tally, status, body);
      if (accessToken !== undefined) {
        this.access = accessToken;
        this.issuedAt = this.exchangeSentAt;
        this.refreshAt = this.exchangeSentAt + ACCESS_TOKEN_S * 1000 - EXPIRY_MARGIN_MS;
      }
      return outcome;
    }
    if (status === 200) {
      const problem = searchShapeProblem(body);
      return problem ? { kind: 'malformed', detail: problem } : { kind: 'ok' };
    }
    if (status === 401) {
      this.access = undefined;
      const ageS = (this.now() - this.issuedAt) / 1000;
      const dueS = ACCESS_TOKEN_S - this.accessToleranceS;
      if (ageS < dueS) {
        const why = `(${ACCESS_TOKEN_S} s lifetime − ${this.accessToleranceS} s tolerance)`;
        return { kind: 'malformed', detail: `search 401 for an access token younger than ${dueS} s ${why}` };
      }
      this.tally.note('access token expired (401), exchanged again');
      return { kind: 'expected' };
    }
    return { kind: 'non2xx' };
  }

  lost(): void {
    if (this.sent === 'probe') this.probe!.lost();
    else if (this.sent === 'exchange') this.chain.uncertain = true;
  }
}

export const exchangeSearchProfile: LoadProfile = {
  name: 'exchange-search',
  title: 'exchange, then business search with the access token until 401, then exchange again',
  defaultThresholds: LOAD_DEFAULTS.thresholds,
  kinds: ['exchange', 'search'],
  async prepare(ctx) {
    const { target } = ctx.session;
    const identity = await ctx.resolve(target.identityUrl, 'sign-in server');
    const tenant = await ctx.resolve(target.baseUrl, 'tenant host');
    const set = await ctx.apiTokenChains('exchange-search');
    const race = await ctx.raceProbe(set);
    const { hook } = ctx;
    // With the hook, give every chain's user read access to one business, so searches find something.
    if (set.source === 'hook' && hook && hook.has('businesses') && hook.has('access')) {
      const business = await hook.createBusiness(target.tenant, ctx.names.business());
      await mapLimit(set.emails, 16, (email) => hook.setAccess(target.tenant, business, email, 'read'));
    }
    return {
      endpoints: sameOrigin(identity, tenant) ? [identity] : [identity, tenant],
      connections: set.chains.length,
      chains: set.source,
      race: race.result,
      conversation: (index, tally) => {
        const probing = index < race.chains ? { judged: race.judged, index } : undefined;
        return new SearchConversation(chainAt(set.chains, index), identity, tenant, target.clientId, tally, accessTolerance(target), Date.now, probing);
      },
      ...(set.checkpoint ? { checkpoint: (final: boolean) => set.checkpoint!(final) } : {}),
    };
  },
  artillery: {
    async vu(v) {
      const { email, apiToken } = await v.hookUserWithApiToken();
      await v.grantReadToNewBusiness(email);
      const chain = new LoadChain(`virtual user (${email})`, apiToken, undefined);
      return new SearchConversation(chain, v.identity, v.tenant, v.clientId, v.tally, v.accessToleranceS);
    },
  },
};
