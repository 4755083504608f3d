/**
 * What a load run is given (`tack load`'s options after parsing, or certify's), where it writes, and
 * what it hands back: the types the runner (run.ts), the capacity search (capacity/capacity-run.ts) and the
 * result draft (results/draft.ts) share, kept apart so none of them imports another for a type.
 */
import type { BuiltInStarter } from '../harness/session.js';
import type { CapacityPlan } from './capacity/capacity.js';
import type { PrometheusOut } from './outputs/prometheus.js';
import type { LoadProfile } from './profile.js';
import type { Shard } from './shard.js';
import type { LoadResult, SystemUnderTest } from './types.js';

export interface LoadOptions {
  readonly profile: LoadProfile;
  readonly envFile?: string | undefined;
  readonly env?: NodeJS.ProcessEnv | undefined;
  /** Total across shards; this runner opens its share. */
  readonly connections: number;
  readonly durationMs: number;
  readonly warmupMs: number;
  /** Total fixed rate across shards (req/s); undefined for the closed model. */
  readonly rate?: number | undefined;
  readonly thresholds: readonly string[];
  readonly baseline?: string | undefined;
  readonly tolerancePct: number;
  readonly out?: string | undefined;
  readonly reportsDir: string;
  readonly shard?: Shard | undefined;
  readonly tokenPool?: string | undefined;
  readonly allowRemote: boolean;
  /** Built-in server only. */
  readonly faults: readonly string[];
  /** Starts the built-in server when no TACK_BASE_URL is set (the command line hands it in). */
  readonly builtIn?: BuiltInStarter | undefined;
  readonly timeoutMs?: number | undefined;
  readonly failOnErrors: boolean;
  readonly quiet: boolean;
  readonly version: string;
  readonly signal?: AbortSignal | undefined;
  /** The exchange profiles' race probe: the share of chains that probe (0 to 1; 0 turns it off). Default `LOAD_DEFAULTS.raceProbeShare`. */
  readonly raceProbeShare?: number | undefined;
  /** `--find-capacity`: steps of offered rate instead of one fixed load (see capacity/capacity.ts). */
  readonly capacity?: CapacityPlan | undefined;
  /** `--out prometheus=URL`: the figures pushed through remote write while the run lasts (outputs/prometheus.ts). */
  readonly prometheus?: PrometheusOut | undefined;
  /** `--sut "text"` and `--sut-vcpus N`: the system under test, recorded in the result and shown on the pages. */
  readonly sut?: SystemUnderTest | undefined;
  /** `--allow-unstable`: an unstable capacity search exits 0 rather than 5 (it still says so). */
  readonly allowUnstable?: boolean | undefined;
}

export interface LoadIo {
  /** The header and the summary. */
  write(text: string): void;
  /** Progress lines, once a second. */
  progress(text: string): void;
}

export interface LoadOutcome {
  readonly exitCode: number;
  readonly result: LoadResult;
  readonly files: { readonly json: string; readonly html: string };
}
