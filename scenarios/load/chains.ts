/**
 * Personal API-token chains for the exchange profiles: one per connection.
 *
 * - Hook mode (the hook lists `users` and `api-tokens`): one fresh, directly-signed-in user per
 *   chain, each with a new API token. Their e-mails carry the run id. Each token is in the run's
 *   ledger (its journal) from the start; the chain's current token is brought up to date there once
 *   a second and at the end, and revoked when the run ends.
 * - Hookless mode: the token pool (`--token-pool FILE` / `TACK_LOAD_TOKEN_POOL`), one token per line;
 *   the file is rewritten with each chain's current token once a second and at the end.
 *
 * A chain's token lives only in its `LoadChain` object: never printed, never registered with the
 * redactor (there may be millions), never written anywhere but the pool file.
 */
import { TackError } from '../../src/harness/errors.js';
import type { ProfileContext } from '../../src/load/profile.js';
import { readPool, writePool } from '../../src/load/token-pool.js';

export class LoadChain {
  rotations = 0;
  /** Set when a request of this chain got no answer: a refusal that follows may be our own loss. */
  uncertain = false;
  /** The chain has ended (broken, or a 2xx without a usable token): its connection closes. */
  ended = false;

  constructor(
    readonly label: string,
    public token: string,
    /** Index in the token pool (hookless mode). */
    readonly poolIndex: number | undefined,
  ) {}
}

/**
 * A conversation that follows one chain: its label, rotation count and end are the chain's.
 * Profiles extend it with `next()`, `answer()` and `lost()`.
 */
export abstract class ChainConversation {
  constructor(protected readonly chain: LoadChain) {}

  get label(): string {
    return this.chain.label;
  }
  get rotations(): number {
    return this.chain.rotations;
  }
  get ended(): boolean {
    return this.chain.ended;
  }
}

export interface ChainSet {
  readonly chains: readonly LoadChain[];
  readonly source: 'hook' | 'pool';
  /** Hook mode: the users, by chain (for access grants). */
  readonly emails: readonly string[];
  checkpoint?(final: boolean): Promise<void>;
}

/** Runs `fn` over `items`, at most `limit` at a time, keeping order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export async function apiTokenChains(ctx: ProfileContext, profile: string): Promise<ChainSet> {
  const { hook, session } = ctx;
  if (ctx.tokenPool !== undefined) return poolChains(ctx, ctx.tokenPool);
  if (hook?.has('users') && hook.has('api-tokens')) {
    const tenant = session.target.tenant;
    const emails = Array.from({ length: ctx.connections }, () => ctx.names.email('load'));
    ctx.say(`creating ${emails.length} users with one API token each through the test hook`);
    const chains = await mapLimit(emails, 16, async (email, i) => {
      await hook.createUser(tenant, { email, ...ctx.names.person(), signIn: 'direct' });
      const token = await hook.apiToken(tenant, email);
      return new LoadChain(`chain ${i + 1} (${email})`, token, undefined);
    });
    const listed = chains.map((c) => c.token);
    const checkpoint = (): Promise<void> => {
      for (const [i, chain] of chains.entries()) {
        if (listed[i] === chain.token) continue;
        session.ledger.exchanged(listed[i]!, chain.token); // the rotation, in the journal
        listed[i] = chain.token;
      }
      return Promise.resolve();
    };
    return { chains, source: 'hook', emails, checkpoint };
  }
  const why = hook ? 'the test hook does not list the users and api-tokens capabilities' : 'no test hook is configured (TACK_HOOK_URL)';
  throw new TackError(
    'TACK_ERR_CONFIG',
    `${profile} needs one API token per connection: ${why}; ` +
      'give a token pool with --token-pool FILE or TACK_LOAD_TOKEN_POOL (one personal API token per line, see docs/load.md)',
  );
}

function poolChains(ctx: ProfileContext, path: string): ChainSet {
  const entries = readPool(path, ctx.shard);
  if (entries.length < ctx.connections) {
    ctx.say(
      `the token pool holds ${entries.length} token(s)${ctx.shard ? ' for this shard' : ''}: ${entries.length} connection(s) instead of ${ctx.connections}`,
    );
  }
  const used = entries.slice(0, ctx.connections);
  const chains = used.map((e, i) => new LoadChain(`chain ${i + 1} (pool token #${e.index + 1})`, e.token, e.index));
  let written = new Map<number, string>(used.map((e) => [e.index, e.token]));
  let writing: Promise<void> | undefined;
  return {
    chains,
    source: 'pool',
    emails: [],
    async checkpoint(final: boolean): Promise<void> {
      if (writing) {
        if (!final) return;
        await writing;
      }
      const now = new Map(chains.map((c) => [c.poolIndex!, c.token]));
      if ([...now].every(([i, t]) => written.get(i) === t)) return;
      writing = writePool(path, now).then(() => {
        written = now;
      });
      try {
        await writing;
      } finally {
        writing = undefined;
      }
    },
  };
}
