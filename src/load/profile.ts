/**
 * What a load profile is (the modules under `load-profiles/`): one typed unit holding its
 * requests and verdicts (the conversation each connection follows), how `tack load` sets up its
 * chains (`prepare()`), and its Artillery form (`artillery`: how one Artillery virtual user gets
 * its chain, then the same conversation). `artillery` is required: a profile without an export
 * form does not type-check.
 *
 * A profile's module imports no code that talks to a target: `tack load` hands it the setup
 * services through its context (`ProfileContext`), and `tack load export artillery` bundles the
 * profiles, conversations and all, into the Artillery processor (src/load/artillery/). Profiles
 * never import the reference server.
 */
import type { PartnerClient } from '../harness/clients/partner.js';
import type { HookClient } from '../harness/clients/hook.js';
import type { Names } from '../harness/names.js';
import type { Session } from '../harness/session.js';
import type { ArtilleryForm } from './artillery/form.js';
import type { LoadChain } from './chains/chain.js';
import type { Conversation, Tally } from './engine/engine.js';
import type { Shard } from './shard.js';
import type { PartnerWire } from './chains/partner-wire.js';
import type { Endpoint } from './engine/target.js';
import type { RaceProbeResult, RequestKind, RotationPolicy } from './types.js';

/** What `tack load` knows of the run when a profile sets up: the session, the hook, the connections. */
export interface SetupContext {
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

/** A profile's context: the run, and the chain sources it may ask for (src/load/chains/: chain-sources.ts, partner-setup.ts). */
interface ProfileContext extends SetupContext {
  /** One personal API-token chain per connection: fresh hook users, or the token pool. */
  apiTokenChains(profile: string): Promise<ChainSet>;
  /** Tenant A's partner key, a few users created with it, and the fields of its token answer. */
  partner(profile: string): Promise<PartnerSetup>;
  /** The race probe for these chains (--race-probe): which of them probe, and the server's policy one exchange at a time. */
  raceProbe(set: ChainSet): Promise<RaceSetup>;
}

export interface ChainSet {
  readonly chains: readonly LoadChain[];
  readonly source: 'hook' | 'pool';
  /** Hook mode: the users, by chain (for access grants). */
  readonly emails: readonly string[];
  checkpoint?(final: boolean): Promise<void>;
}

export type { PartnerWire } from './chains/partner-wire.js';

export interface PartnerSetup {
  readonly wire: PartnerWire;
  readonly client: PartnerClient;
  readonly users: readonly string[];
}

/** The race probe as `prepare()` hands it to the conversations (chains/rotation-policy.ts), and as the result carries it (forks aside). */
export interface RaceSetup {
  /** Chains that probe: the first `chains` of the set. */
  readonly chains: number;
  /** Undefined when the probe does not run. */
  readonly policy: RotationPolicy | undefined;
  /** Whether a fork fails the run (src/load/race.ts, `forkFails`). */
  readonly judged: boolean;
  readonly result: Omit<RaceProbeResult, 'forks' | 'forksNotListed'>;
}

export interface Prepared {
  /** Every origin this profile sends to (one connection pool each): one, or the sign-in server and the tenant host. */
  readonly endpoints: readonly Endpoint[];
  /** Connections (drivers) to run: fewer than asked when a token pool is smaller. */
  readonly connections: number;
  /** Where chains came from: `hook`, `pool`, `partner`. */
  readonly chains: string;
  /** The exchange profiles' race probe, as set up (src/load/chains/rotation-policy.ts); its chains need a connection more each. */
  readonly race?: RaceSetup['result'] | undefined;
  conversation(index: number, tally: Tally): Conversation;
  /** Called once a second during the run and once at the end (`final`): token pools are saved here. */
  checkpoint?(final: boolean): Promise<void>;
}

export interface LoadProfile {
  readonly name: string;
  readonly title: string;
  /** Thresholds used when no --threshold is given. */
  readonly defaultThresholds: readonly string[];
  /** The kinds of request it sends (a threshold naming another kind is refused; the Artillery script names one step each). */
  readonly kinds: readonly RequestKind[];
  prepare(ctx: ProfileContext): Promise<Prepared>;
  /** The same load on Artillery (`tack load export artillery`). */
  readonly artillery: ArtilleryForm;
}
