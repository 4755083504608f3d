/**
 * What a load profile is (the modules under `scenarios/load/`): a name, default thresholds, and a
 * `prepare()` that sets up what the run needs through the harness (users and tokens through the
 * hook or the partner key, or a token pool) and returns one conversation per connection.
 *
 * Profiles talk to the target only through `src/harness/` and the engine; they never import the
 * reference server.
 */
import type { HookClient } from '../harness/clients/hook.js';
import type { Names } from '../harness/names.js';
import type { Session } from '../harness/session.js';
import type { Conversation, Tally } from './engine.js';
import type { Shard } from './shard.js';
import type { Endpoint } from './target.js';
import type { RequestKind } from './types.js';

export interface ProfileContext {
  readonly session: Session;
  /** The test hook, discovered; undefined when the target has none (hookless mode). */
  readonly hook: HookClient | undefined;
  readonly names: Names;
  /** Connections this runner opens (already this shard's share). */
  readonly connections: number;
  /** Hookless token pool file (`--token-pool` / `TACK_LOAD_TOKEN_POOL`). */
  readonly tokenPool: string | undefined;
  readonly shard: Shard | undefined;
  /** Resolves a target URL to where sockets go (refuses non-loopback without --allow-remote). */
  resolve(url: string, role: string): Promise<Endpoint>;
  /** A line for the operator (setup notices); never carries a token. */
  say(line: string): void;
}

export interface Prepared {
  /** Every origin this profile sends to (one connection pool each): one, or the sign-in server and the tenant host. */
  readonly endpoints: readonly Endpoint[];
  /** Connections (drivers) to run: fewer than asked when a token pool is smaller. */
  readonly connections: number;
  /** Where chains came from: `hook`, `pool`, `partner`. */
  readonly chains: string;
  conversation(index: number, tally: Tally): Conversation;
  /** Called once a second during the run and once at the end (`final`): token pools are saved here. */
  checkpoint?(final: boolean): Promise<void>;
}

export interface LoadProfile {
  readonly name: string;
  readonly title: string;
  /** Thresholds used when no --threshold is given. */
  readonly defaultThresholds: readonly string[];
  /** The kinds of request it sends (a threshold naming another kind is refused). */
  readonly kinds: readonly RequestKind[];
  prepare(ctx: ProfileContext): Promise<Prepared>;
}
