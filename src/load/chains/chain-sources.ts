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
 * Profiles ask for them through their context (`ctx.apiTokenChains(profile)`), so a profile's own
 * module imports nothing that talks to a target (it is bundled into the Artillery processor).
 */
import { TackError } from '../../harness/errors.js';
import { LoadChain, mapLimit } from './chain.js';
import type { ChainSet, SetupContext } from '../profile.js';
import { readPool, writePool } from './token-pool.js';

export async function apiTokenChains(ctx: SetupContext, profile: string): Promise<ChainSet> {
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
    const sparesListed = chains.map(() => 0);
    const checkpoint = (): Promise<void> => {
      for (const [i, chain] of chains.entries()) {
        // A race probe's extra successors: tack's to revoke, however many a fork made.
        for (const spare of chain.spares.slice(sparesListed[i])) session.ledger.generated(spare, 'hook', emails[i]);
        sparesListed[i] = chain.spares.length;
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

function poolChains(ctx: SetupContext, path: string): ChainSet {
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
