/**
 * The result of one load run (or of several merged): `tack-load/1`. Every number in it is a count
 * or a sum, and every latency distribution is an encoded HdrHistogram in microseconds, so results
 * from shards merge exactly (`tack load merge`). Nothing in it is a token or a secret.
 */

import type { Machine } from './engine/machine.js';

export const LOAD_SCHEMA = 'tack-load/1';

export const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

/** What a request is for: each kind is counted and timed apart (`endpoints`), and thresholds may name one (`exchange.p99<20ms`). */
export const REQUEST_KINDS = ['exchange', 'search', 'mint', 'refresh'] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];

/** Counts of one phase (warmup or measured). Every member is summed when results merge. */
export interface Counts {
  /** Responses received (any status). */
  responses: number;
  /** Responses that were correct for the profile (a valid 2xx, or an expected refusal such as a 401 that triggers a re-exchange). */
  ok: number;
  /** Expected non-2xx answers (a 401 on an expired access token before re-exchanging). */
  expected: number;
  /** Unexpected non-2xx answers (not counting invalid_grant breaks, counted in `broken`). */
  non2xx: number;
  /**
   * Answers against the spec (the name is kept for result compatibility): a 2xx whose body is not
   * what the spec says (missing or wrong token fields, expires_in not 300), an exchange that returns
   * the refresh token it was sent, a 401 for an access token younger than its lifetime. Each kind is
   * counted in `notes` as `malformed: <what>`.
   */
  malformed: number;
  /** Chains whose current token was refused (invalid_grant): rotation broke under load. */
  broken: number;
  /** Chains whose token was refused after one of their own requests was lost (timeout or socket error). */
  lost: number;
  /** Transport errors (connection refused or reset...), timeouts excluded. */
  errors: number;
  /** Requests that got no answer within the timeout. */
  timeouts: number;
  /** Successful rotations (a new token replaced the chain's current one). */
  rotations: number;
  /** Answers by status code. */
  byStatus: Record<string, number>;
  /** Transport errors by code (ECONNRESET...). */
  errorCodes: Record<string, number>;
  /** Things the spec leaves open, counted and never failed ("refresh kept the same token"). */
  notes: Record<string, number>;
  /** Race probes: a chain's current token sent twice at the same moment (absent in results of tack before 0.4). */
  raceProbes?: number;
  /** Race probes that forked the chain (two tokens returned still exchanged) where one at a time allows one (absent before 0.4). */
  forks?: number;
}

export interface ChainBreak {
  /** Which chain: its number and, in hook mode, its user (test users only; never a token). */
  readonly chain: string;
  /** `rotation` (invalid_grant on the chain's current token) or `lost` (after a lost request). */
  readonly cause: 'rotation' | 'lost';
  /** Seconds since the first request of the run (warmup included). */
  readonly atS: number;
  readonly phase: 'warmup' | 'measured';
  /** Rotations the chain had completed when it broke. */
  readonly afterRotations: number;
  readonly status: number;
  /** The OAuth `error` member or a short description of the refusal. */
  readonly error: string;
  /** Set when results were merged: which input it came from. */
  readonly shard?: string;
}

/**
 * What the server does, one exchange at a time, with a token it has just rotated out (seen once in
 * `prepare()`, docs/load.md "Race probe"): `refused` (and the chain goes on), `ends-chain` (refused,
 * and presenting it ends the whole chain), `replaces` (accepted again, each reuse ending the token it
 * replaced), `limited` (accepted a few more times, the tokens returned staying usable), `unlimited`.
 */
export const ROTATION_POLICIES = ['refused', 'ends-chain', 'replaces', 'limited', 'unlimited'] as const;
export type RotationPolicy = (typeof ROTATION_POLICIES)[number];

/** A race probe whose two exchanges of one token left two usable tokens where one at a time leaves at most one. */
export interface RaceFork {
  /** Which chain: its number and test user (never a token). */
  readonly chain: string;
  /** Seconds since the first request of the run (warmup included). */
  readonly atS: number;
  readonly phase: 'warmup' | 'measured';
  /** Rotations the chain had completed when it probed. */
  readonly afterRotations: number;
  /** How many different tokens the exchanges sent together (2 or 3) returned. */
  readonly exchanged: number;
  /** How many of the tokens returned still exchanged afterwards. */
  readonly alive: number;
  /** Set when results were merged: which input it came from. */
  readonly shard?: string;
}

/** The race probe of a run (docs/load.md, "Race probe"): how it was set up, what one at a time showed, the forks. */
export interface RaceProbeResult {
  /** Share of the chains asked to probe (0 to 1; 0 when turned off). */
  readonly share: number;
  /** Chains that probed. */
  readonly chains: number;
  /** The policy one exchange at a time showed, or null when the probe did not run. */
  readonly policy: RotationPolicy | null;
  /** What one exchange at a time showed, in words (or why the probe did not run). */
  readonly seen: string;
  /** Whether a fork fails the run: the policy leaves at most one usable token per chain. */
  readonly judged: boolean;
  /** The forks (first 100 listed, the rest counted). */
  readonly forks: RaceFork[];
  readonly forksNotListed: number;
}

/** One second of the measured phase. */
export interface Second {
  readonly s: number;
  /**
   * How much of a second this one covers: 1, except for the last, partial one (a 1.5 s run has a
   * second of 0.5 s). Rates are `responses / spanS`. Absent in results of tack before 0.2: 1.
   */
  readonly spanS?: number;
  responses: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /**
   * All-status latency of the responses of this second (encoded HdrHistogram, µs): the run's own
   * measure, so the same as the summary's (coordinated-omission corrected in the open model).
   */
  latency: string;
  /** The load generator in this second: its event loop's busy share (%), the p99 of its event-loop delay (µs), slots it sent late. */
  busyPct?: number;
  loopDelayUs?: number;
  lateSlots?: number;
}

/**
 * How the load generator (this process) fared over the measured phase. When it was saturated the
 * figures are a floor of the target's capacity, not its capacity (docs/load.md, "Generator health").
 */
export interface GeneratorHealth {
  /** CPU time of the load process (user + system, every thread) over the measured phase, in % of one core. */
  readonly cpuPct: number;
  /** Event-loop utilisation: the share of the measured phase the loop spent working rather than waiting for I/O (%). */
  readonly busyPct: number;
  /** Event-loop delay (µs): how much later than asked a 10 ms timer fired. */
  readonly loopDelayUs: { readonly p50: number; readonly p99: number; readonly max: number };
  /** Open model only (null in the closed model): slots sent at least `lateMs` after they fell due while a connection was free. */
  readonly lateSlots: number | null;
  readonly lateSlotsPerS: number | null;
  readonly saturated: boolean;
  /** Why it counts as saturated (empty when it does not). */
  readonly reasons: readonly string[];
}

/** One request kind's share of a result: the same counters and histograms as the whole, so it merges and is judged the same way. */
export interface EndpointResult {
  readonly warmup: Counts;
  readonly measured: Counts;
  readonly latency: Latency;
}

export interface Latency {
  readonly unit: 'us';
  /** Measured phase, as answered (service time), by status class; encoded HdrHistograms. */
  readonly byClass: Partial<Record<StatusClass, string>>;
  /** Fixed-rate mode only: all statuses, corrected for coordinated omission (see docs/load.md). */
  readonly corrected: string | null;
}

export interface Threshold {
  readonly expr: string;
  readonly ok: boolean;
  readonly actual: string;
  /** `profile` when it is a profile default, `cli` when given with --threshold. */
  readonly source: 'profile' | 'cli' | 'baseline';
  /**
   * Set when the figure rests on fewer answers than the sample rule asks for (a pNN needs
   * 10 / (1 − NN/100) answers: p99 1 000, p99.9 10 000): said, never a silent pass or fail.
   */
  readonly samples?: { readonly answers: number; readonly needed: number } | undefined;
}

/** What was loaded, in the tester's words: `--sut "Keycloak 26.1, 2 pods"` and `--sut-vcpus 4`. */
export interface SystemUnderTest {
  readonly name: string;
  /** The target's vCPUs: the capacity is then also given per vCPU. */
  readonly vcpus: number | null;
}

interface LoadSettings {
  readonly connections: number;
  readonly durationS: number;
  readonly warmupS: number;
  /** Overall fixed rate (req/s) of this run, or null in the closed model. */
  readonly rate: number | null;
  readonly timeoutS: number;
  readonly shard: { readonly index: number; readonly count: number } | null;
  /** Where chains came from: `hook`, `pool` (token-pool file), `partner` (partner key), `fixed` (bench). */
  readonly chains: string;
  readonly failOnErrors: boolean;
}

export interface LoadResult {
  readonly schema: typeof LOAD_SCHEMA;
  readonly tack: { readonly version: string };
  readonly runId: string;
  readonly profile: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  /** Length of the measured phase in seconds (the longest input's when merged). */
  readonly measuredS: number;
  readonly target: { readonly baseUrl: string; readonly identityUrl: string; readonly builtIn: boolean; readonly faults: readonly string[] };
  /** The system under test as `--sut` named it, and its vCPUs (`--sut-vcpus`, null when not given); absent when not named. */
  readonly sut?: SystemUnderTest | undefined;
  /** Where the load was generated (absent in results of tack before 0.2, and in merged results: see `mergedFrom`). */
  readonly machine?: Machine | undefined;
  readonly settings: LoadSettings;
  readonly warmup: Counts;
  readonly measured: Counts;
  readonly latency: Latency;
  /** By request kind (absent in results of tack before 0.3). */
  readonly endpoints?: Partial<Record<RequestKind, EndpointResult>> | undefined;
  /** The load generator's health over the measured phase (absent in results of tack before 0.3). */
  readonly generator?: GeneratorHealth | undefined;
  readonly timeline: Second[];
  readonly breaks: ChainBreak[];
  /** Breaks beyond the first 100 are counted, not listed. */
  readonly breaksNotListed: number;
  /** The exchange profiles' race probe (absent in results of tack before 0.4 and of the other profiles). */
  readonly race?: RaceProbeResult | undefined;
  readonly thresholds: Threshold[];
  readonly verdict: LoadVerdict;
  /** `--find-capacity` only: the steps of offered rate and the highest that held. */
  readonly capacity?: Capacity | undefined;
  /** Live outputs (`--out prometheus=URL`): where the figures went and how many pushes failed. */
  readonly outputs?: OutputsReport | undefined;
  /** Set when a threshold marked `:abort` stopped the run at its sustained breach: the result covers the part that ran. */
  readonly stoppedEarly?: { readonly reason: string } | undefined;
  /** Set when SIGINT or SIGTERM stopped the run: the result covers the part that ran. */
  readonly interrupted?: { readonly signal: string } | undefined;
  /** Inputs of a merged result (their run ids and shards); empty for a single run. */
  readonly mergedFrom: {
    readonly runId: string;
    readonly shard: string | null;
    readonly file: string;
    readonly machine?: Machine | undefined;
    readonly generator?: GeneratorHealth | undefined;
  }[];
}

/**
 * What a step of a capacity search came to: `held`; `breached` (a threshold, the rate or an error
 * failed: retried once); `too-few-samples` (a threshold could not be judged on the step's answers);
 * `incorrect` (a broken chain or an answer against the spec: the search stops and fails, exit 1).
 */
export type StepStatus = 'held' | 'breached' | 'too-few-samples' | 'incorrect';

/** One step of a capacity search: an open-model run at `rate`, judged on its own. */
export interface CapacityStep {
  /** Offered rate (req/s). */
  readonly rate: number;
  /**
   * `ladder` (the rising rates), `bisect` (between the last held and the breached rate), `confirm` (the rate found and the
   * rate that breached, run once more after the bisection). Absent before tack 0.3: ladder.
   */
  readonly stage?: 'ladder' | 'bisect' | 'confirm';
  /** 1, or 2 for the retry of a step that breached. */
  readonly attempt?: number;
  /** Absent before tack 0.3: held or breached, as `held` says. */
  readonly status?: StepStatus;
  /** Answers per second of the step. */
  readonly achieved: number;
  /** Latency of the step (µs), coordinated-omission corrected: the step's own figures, nothing of the other steps. */
  readonly p50: number;
  readonly p90?: number;
  readonly p99: number;
  readonly p999?: number;
  readonly max?: number;
  /** Failed requests of the step (the `errors` threshold metric). */
  readonly errors: number;
  /** Chains whose current token was refused during the step (broken + lost). */
  readonly brokenChains: number;
  readonly held: boolean;
  /** Why it did not hold (breached thresholds, correctness, the rate not reached); empty when it held. */
  readonly reasons: readonly string[];
  /** Slots that fell due but found every connection busy and were never sent. */
  readonly unsent: number;
  /** Seconds since the start of the search when the step began. */
  readonly atS: number;
  /** The step's measured length (s): longer than --step-duration when a threshold needed more answers. */
  readonly measuredS?: number;
  /** The step's own counts, latency and request kinds (the headline of the search is read from here). */
  readonly measured?: Counts;
  readonly latency?: Latency;
  readonly endpoints?: Partial<Record<RequestKind, EndpointResult>> | undefined;
  readonly generator?: GeneratorHealth | undefined;
  /** The machine's 1-minute load average when the step ended (absent before tack 0.4). */
  readonly load?: number | undefined;
}

/**
 * Whether a capacity search's knee is a figure to quote (docs/load.md, "Confirmation and stability"):
 * `stable` when both confirmations agreed, no retry flipped and no step at the knee or above was
 * disturbed by the machine; else `unstable`, with the range the knee lies in.
 */
export interface CapacityStability {
  readonly verdict: 'stable' | 'unstable';
  /** Confirmation steps that agreed with the search, of those run (2, or 1 when every rate held). */
  readonly confirmed: number;
  readonly confirmations: number;
  /**
   * Where the knee lies (req/s): the rate found and the rate that breached when stable; when not, on the evidence of
   * every step (low null: no rate held without a breach at or below it).
   */
  readonly low: number | null;
  readonly high: number;
  /** Retries that flipped: a step that breached, then held at the same rate. */
  readonly flips: number;
  /** Steps at the knee or above that the machine disturbed (the generator saturated, the load average beyond the cores). */
  readonly disturbed: number;
  /** Why it is unstable; empty when stable. */
  readonly reasons: readonly string[];
}

export interface Capacity {
  /** The highest offered rate that held, or null when none did. */
  readonly maxRate: number | null;
  /** The lowest rate that breached (after its retry) above `maxRate`, or null when none did. */
  readonly breachedRate?: number | null;
  /** Index in `steps` of the headline step: the highest that held (null when none held). */
  readonly headline?: number | null;
  /** Whether the knee was confirmed (absent when no step held, or in results before tack 0.4). */
  readonly stability?: CapacityStability | undefined;
  readonly steps: readonly CapacityStep[];
  readonly settings: {
    readonly startRate: number;
    /** Each step's rate is the previous one times `factor`, or plus `increment` (one of the two is null). */
    readonly factor: number | null;
    readonly increment: number | null;
    readonly stepS: number;
    readonly maxRate: number;
    /** A step holds only if it answered at least this share of the offered rate. */
    readonly minAchievedPct: number;
    /** The bisection stops when the breached and the held rate are this close: `pct` of the held rate, or `rps` req/s. */
    readonly resolution?: { readonly pct: number } | { readonly rps: number };
    /** Warmup before the first step (s). */
    readonly warmupS?: number;
  };
}

/** What became of a run's live outputs (docs/load.md, "Live metrics"). */
export interface OutputsReport {
  readonly prometheus?: {
    /** The remote-write endpoint's host and port (never its credentials). */
    readonly host: string;
    readonly intervalS: number;
    /** Pushes tried, and how many of them failed (Prometheus down, a refusal, a timeout): a failed push never fails the run. */
    readonly pushes: number;
    readonly failed: number;
    /** Why the first failed push failed. */
    readonly firstError?: string | undefined;
  };
}

/** A load run's verdict: its exit code and the reasons it failed. */
export interface LoadVerdict {
  readonly exitCode: number;
  /** One line per reason the run failed; empty when it passed. */
  readonly reasons: string[];
}

export function emptyCounts(): Counts {
  return {
    responses: 0,
    ok: 0,
    expected: 0,
    non2xx: 0,
    malformed: 0,
    broken: 0,
    lost: 0,
    errors: 0,
    timeouts: 0,
    rotations: 0,
    byStatus: {},
    errorCodes: {},
    notes: {},
    raceProbes: 0,
    forks: 0,
  };
}

export function statusClassOf(status: number): StatusClass {
  const c = Math.floor(status / 100);
  return c <= 1 ? '1xx' : c === 2 ? '2xx' : c === 3 ? '3xx' : c === 4 ? '4xx' : '5xx';
}
