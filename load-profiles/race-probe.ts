/**
 * The race probe of the exchange profiles (docs/load.md, "Race probe"): now and then a probing
 * chain sends its current token twice (or three times: every other probe, odd chains first) at the same moment, each copy on its own connection (the
 * engine's `together`), then exchanges each token the two returned, one at a time, to see which
 * still work. Two tokens that still exchange are a fork: the chain now has two live branches, and
 * one of them sits where nobody sees it (spec §5). Where the server, one exchange at a time, leaves
 * at most one usable token (the policy `prepare()` saw, src/load/race.ts), a fork fails the run;
 * where it accepts a rotated-out token and keeps what it returned usable, the probe only observes.
 *
 * The chain goes on with the first token that still exchanged; the others are its spares
 * (`LoadChain.spares`), listed in the run's ledger and revoked at the end. A refusal of a copy or of
 * a returned token is what a policy allows, never a broken chain; when no token is left, the chain
 * ends (reuse ended it, as the policy says it may).
 *
 * A probing chain probes at its first exchange and again after 10, 100, 1 000... rotations: a few
 * probes in any run, each leaving at most one spare.
 */
import type { LoadChain } from '../src/load/chains/chain.js';
import type { LoadRequest, Tally } from '../src/load/engine/engine.js';
import type { AnswerOutcome } from '../src/load/engine/recorder.js';
import type { Endpoint } from '../src/load/engine/target.js';
import { exchangeRequest, judgeExchange, NOT_ROTATED as NOT_ROTATED_DETAIL } from './wire.js';

/** Copies of the chain's token sent together: a chain's probes alternate 2 and 3, odd chains starting at 3 (a server may fork only at one width). */
const RACE_COPIES = [2, 3] as const;
/** Rotations between a chain's probes grow by this factor (first at 0, then 10, 100, ...). */
const SPACING = 10;

/** What a probing conversation is given: whether a fork fails the run (the policy one at a time). */
export interface RaceSettings {
  readonly judged: boolean;
  /** The probing chain's number from 0: odd chains send 3 copies first, even ones 2, so a short run tries both widths. */
  readonly index?: number;
}

/** A token one of the two copies returned, and what trying it gave. */
interface Returned {
  readonly token: string;
  /** Its successor, when it still exchanged. */
  next?: string;
  access?: string;
  /** Trying it got no usable answer: it may still work. */
  unknown?: boolean;
}

interface ProbeAnswer {
  readonly outcome: AnswerOutcome;
  /** Set on the probe's last answer when the chain goes on: the access token of its new current token's exchange. */
  readonly accessToken?: string;
}

export class RaceProbe {
  private stage: 'idle' | 'pair' | 'try' = 'idle';
  private nextAt = 0;
  private sent = '';
  private answers = 0;
  private refused = 0;
  private lostCopies = 0;
  private returned: Returned[] = [];
  private trying = 0;
  private probes = 0;
  private copies: number = RACE_COPIES[0];

  constructor(
    private readonly chain: LoadChain,
    private readonly settings: RaceSettings,
    private readonly tally: Tally,
  ) {}

  /** Whether the chain's next exchange is the probe's. */
  get due(): boolean {
    return this.stage !== 'idle' || this.chain.rotations >= this.nextAt;
  }

  next(identity: Endpoint, clientId: string): LoadRequest {
    if (this.stage === 'idle') {
      this.stage = 'pair';
      this.copies = RACE_COPIES[((this.settings.index ?? 0) + this.probes++) % RACE_COPIES.length]!;
      this.sent = this.chain.token;
      this.answers = 0;
      this.refused = 0;
      this.lostCopies = 0;
      this.returned = [];
      this.trying = 0;
      return { ...exchangeRequest(identity, clientId, this.sent), together: this.copies };
    }
    return exchangeRequest(identity, clientId, this.returned[this.trying]!.token);
  }

  /** `retryAfter`: the answer carried a Retry-After header. */
  answer(status: number, body: string, retryAfter = false): ProbeAnswer {
    return this.stage === 'pair' ? this.pairAnswer(status, body, retryAfter) : this.tryAnswer(status, body);
  }

  /** The request in flight got no answer. */
  lost(): void {
    if (this.stage === 'pair') {
      this.lostCopies++;
      this.answers++;
      if (this.answers === this.copies) this.afterPair();
      return;
    }
    this.returned[this.trying]!.unknown = true;
    this.trying++;
    if (this.trying === this.returned.length) this.finish();
  }

  private pairAnswer(status: number, body: string, retryAfter: boolean): ProbeAnswer {
    this.answers++;
    const a = judgeExchange(status, body);
    let outcome: AnswerOutcome;
    if (a.kind === 'rotated' || (a.kind === 'malformed' && a.refreshToken !== undefined)) {
      const token = a.refreshToken!;
      if (token !== this.sent && !this.returned.some((r) => r.token === token)) this.returned.push({ token });
      outcome = a.kind === 'malformed' ? { kind: 'malformed', detail: a.detail } : token === this.sent ? NOT_ROTATED : { kind: 'ok' };
    } else if (a.kind === 'invalid_grant') {
      this.refused++;
      this.tally.note('race probe: one of the exchanges of one token sent together refused (invalid_grant)');
      outcome = { kind: 'expected' };
    } else if (refusesOverlap(status, retryAfter)) {
      // A lock per token turning the overlapping copy away (429, or 503 with Retry-After): the server refusing the overlap, not an error.
      this.tally.note('race probe: one of the exchanges of one token sent together turned away (429 or 503 with Retry-After)');
      outcome = { kind: 'expected' };
    } else outcome = a.kind === 'malformed' ? { kind: 'malformed', detail: a.detail } : { kind: 'non2xx' };
    if (this.answers === this.copies) this.afterPair();
    return { outcome };
  }

  private afterPair(): void {
    if (this.returned.length > 0) {
      this.stage = 'try';
      return;
    }
    this.done();
    if (this.refused > 0) {
      // Refused, and nothing returned: the token is gone (a policy may refuse a token it sees twice at once).
      this.tally.note('race probe: no exchange of the two sent together returned a token; the chain ended');
      this.chain.ended = true;
    } else if (this.lostCopies > 0) this.chain.uncertain = true;
    // Every copy turned away (429 or 503 with Retry-After) and none refused: the token was not used; the chain goes on with it.
  }

  private tryAnswer(status: number, body: string): ProbeAnswer {
    const r = this.returned[this.trying]!;
    const a = judgeExchange(status, body);
    let outcome: AnswerOutcome;
    if (a.kind === 'rotated' && a.refreshToken !== r.token) {
      r.next = a.refreshToken;
      r.access = a.accessToken;
      outcome = { kind: 'ok' };
    } else if (a.kind === 'invalid_grant') {
      this.tally.note('race probe: a token the two exchanges returned was refused afterwards (invalid_grant)');
      outcome = { kind: 'expected' };
    } else if (a.kind === 'rotated') {
      r.unknown = true;
      outcome = NOT_ROTATED;
    } else {
      r.unknown = true;
      outcome = a.kind === 'malformed' ? { kind: 'malformed', detail: a.detail } : { kind: 'non2xx' };
    }
    this.trying++;
    if (this.trying < this.returned.length) return { outcome };
    const exchanged = this.returned.length;
    const afterRotations = this.chain.rotations;
    const access = this.finish();
    const alive = this.returned.filter((x) => x.next !== undefined).length;
    if (alive < 2) return { outcome, ...(access !== undefined ? { accessToken: access } : {}) };
    const forked: AnswerOutcome = { kind: 'forked', exchanged, alive, afterRotations };
    if (!this.settings.judged) this.tally.note('race probe: two or more tokens returned still exchanged (the policy allows it: observed)');
    return { outcome: this.settings.judged ? forked : outcome, ...(access !== undefined ? { accessToken: access } : {}) };
  }

  /** The chain goes on with the first token that still exchanged; the rest are spares. Returns that exchange's access token. */
  private finish(): string | undefined {
    this.done();
    const alive = this.returned.filter((x) => x.next !== undefined);
    const unknown = this.returned.filter((x) => x.next === undefined && x.unknown === true);
    const keep = alive[0] ?? unknown[0];
    for (const r of alive.slice(1)) this.chain.spares.push(r.next!);
    for (const r of unknown) if (r !== keep) this.chain.spares.push(r.token);
    if (keep === undefined) {
      this.tally.note('race probe: no token the two exchanges returned still exchanged; the chain ended');
      this.chain.ended = true;
      return undefined;
    }
    const token = keep.next ?? keep.token;
    this.chain.token = token;
    this.chain.rotations++;
    this.tally.rotation();
    this.chain.uncertain = keep.next === undefined;
    return keep.access;
  }

  private done(): void {
    this.stage = 'idle';
    this.nextAt = Math.max(SPACING, this.chain.rotations * SPACING);
  }
}

/** A copy of a probe's exchange answered 429, or 503 with Retry-After: the server refuses the overlapping request, as a per-token lock may. */
export function refusesOverlap(status: number, retryAfter: boolean): boolean {
  return status === 429 || (status === 503 && retryAfter);
}

const NOT_ROTATED: AnswerOutcome = { kind: 'malformed', detail: NOT_ROTATED_DETAIL };
