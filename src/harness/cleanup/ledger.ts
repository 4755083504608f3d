/**
 * Every personal API token tack generates in a run, from the moment it is seen until it is revoked:
 * the hook's (`api-tokens`, for users tack created), the token page's (read from the page's token
 * response, or through Copy), and any the sign-in server hands out in exchange for one of them (a
 * rotation replaces its predecessor). Each is written to the run journal (./journal.ts) before the
 * code that asked for it gets it, and revoked when the run ends, however it ends (the runner's
 * clean-up, then `Session.close()`): anyone holding one could act as its user for 90 days, and no
 * screen lists them (spec §5).
 *
 * The token file's chain is the user's, not tack's: it is never listed and never revoked, nor is
 * what the sign-in server returns for it. Partner-key tokens and access tokens are not API tokens:
 * the spec gives them no revoke call (access tokens end after 300 s).
 */
import type { RunJournal } from './journal.js';

/** Where a token came from. `earlier-run`: listed by the journal of a run that stopped without revoking it. */
type TokenOrigin = 'hook' | 'page' | 'exchange' | 'earlier-run';

/** A token tack generated and did not revoke, and why. */
interface AliveToken {
  readonly origin: TokenOrigin;
  readonly user: string | undefined;
  readonly reason: string;
}

/** What the journal of a run that stopped listed, and how much of it this run revoked. */
interface EarlierRun {
  readonly run: string;
  readonly startedAt: string;
  readonly tokens: number;
  readonly revoked: number;
}

/** results.json's `tokens`: "tokens generated N, revoked N, left alive 0" (or which and why). */
export interface TokenReport {
  readonly generated: number;
  readonly revoked: number;
  readonly leftAlive: number;
  readonly alive: readonly AliveToken[];
  readonly earlierRuns: readonly EarlierRun[];
  /** The run journal is kept, listing what is left alive, for the next run against this target. */
  readonly journalKept: boolean;
}

/** Sends one revoke call; resolves with its status, rejects on a transport error. */
export type Revoke = (token: string) => Promise<{ readonly status: number }>;

interface Family {
  readonly origin: TokenOrigin;
  readonly user: string | undefined;
  /** Tokens of the family that may be live: its newest, or several where exchanges forked it. */
  readonly live: Set<string>;
  /** Set when a revoke was refused or failed. */
  problem?: string;
  /** Set when tack knows the token exists but never learnt its value. */
  readonly lost?: boolean;
  /** The earlier run whose journal listed it. */
  readonly earlier?: string;
}

/** Revoke calls at once at the end of a run. */
const REVOKE_CONCURRENCY = 4;

export class TokenLedger {
  private readonly families: Family[] = [];
  private readonly byToken = new Map<string, Family>();
  /** The token file's chain: the user's own. */
  private readonly users = new Set<string>();
  private readonly earlier: { run: string; startedAt: string; families: Family[] }[] = [];

  constructor(
    private readonly journal: RunJournal | undefined,
    private readonly revoke: Revoke,
  ) {}

  /** A token of the user's token file: never listed, never revoked, nor its rotations. */
  userToken(token: string): void {
    this.users.add(token);
  }

  /** A token tack generated (or was handed for one it generated): listed, synced, before it is used. */
  generated(token: string, origin: TokenOrigin, user?: string): void {
    if (token === '' || this.byToken.has(token) || this.users.has(token)) return;
    const family: Family = { origin, user, live: new Set([token]) };
    this.families.push(family);
    this.byToken.set(token, family);
    this.journal?.add(token, true);
  }

  /** The sign-in server answered an exchange of `sent` with `issued`. */
  exchanged(sent: string, issued: string | undefined): void {
    if (issued === undefined || issued === '' || issued === sent) return;
    if (this.users.has(sent)) {
      this.users.add(issued);
      return;
    }
    const family = this.byToken.get(sent);
    if (family === undefined) {
      this.generated(issued, 'exchange'); // a token tack did not generate, exchanged all the same
      return;
    }
    if (this.byToken.has(issued)) return;
    this.byToken.set(issued, family);
    family.live.add(issued);
    this.journal?.add(issued, false);
    // The spec's rotation replaces the token sent: revoking its successor ends the chain.
    if (family.live.delete(sent)) this.journal?.remove(sent);
  }

  /** A token tack knows exists but could not read (so cannot revoke): reported alive, with why. */
  lost(origin: TokenOrigin, user: string | undefined, reason: string): void {
    this.families.push({ origin, user, live: new Set(), problem: reason, lost: true });
  }

  /** Takes over the tokens an earlier run's journal lists (listed in this run's journal first). */
  adoptEarlier(run: string, startedAt: string, tokens: readonly string[]): void {
    const families: Family[] = [];
    for (const token of tokens) {
      if (this.byToken.has(token)) continue;
      const family: Family = { origin: 'earlier-run', user: undefined, live: new Set([token]), earlier: run };
      this.byToken.set(token, family);
      families.push(family);
      this.journal?.add(token, true);
    }
    this.earlier.push({ run, startedAt, families });
  }

  /** Revokes every token that may still be live; those whose revoke fails stay listed. */
  async revokeAll(): Promise<void> {
    const queue = [...this.earlierFamilies(), ...this.families].flatMap((f) => [...f.live].map((token) => ({ f, token })));
    const worker = async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) await this.revokeOne(next.f, next.token);
    };
    await Promise.all(Array.from({ length: REVOKE_CONCURRENCY }, worker));
  }

  /** Revokes what the earlier runs' journals listed (at the start of a run). */
  async revokeEarlier(): Promise<void> {
    for (const family of this.earlierFamilies()) for (const token of [...family.live]) await this.revokeOne(family, token);
  }

  /** Closes the journal: removed when nothing is left alive, else kept for the next run. */
  finish(): void {
    this.journal?.finish();
  }

  report(): TokenReport {
    const mine = this.families;
    const alive = mine.filter((f) => f.lost === true || f.live.size > 0);
    return {
      generated: mine.length,
      revoked: mine.length - alive.length,
      leftAlive: alive.length,
      alive: alive.map((f) => ({ origin: f.origin, user: f.user, reason: f.problem ?? 'not revoked yet' })),
      earlierRuns: this.earlier.map((e) => ({
        run: e.run,
        startedAt: e.startedAt,
        tokens: e.families.length,
        revoked: e.families.filter((f) => f.live.size === 0).length,
      })),
      journalKept: this.journal !== undefined && [...mine, ...this.earlierFamilies()].some((f) => f.live.size > 0),
    };
  }

  private earlierFamilies(): Family[] {
    return this.earlier.flatMap((e) => e.families);
  }

  private async revokeOne(family: Family, token: string): Promise<void> {
    try {
      const { status } = await this.revoke(token);
      if (status !== 200) {
        family.problem = `the revoke call answered ${status}`;
        return;
      }
      family.live.delete(token);
      this.journal?.remove(token);
      family.problem = undefined;
    } catch (error) {
      family.problem = `the revoke call failed: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
}
