/**
 * Every default of `tack load` in one object: the command line's options and their help, the
 * profiles' thresholds, the capacity search, the Artillery export and `tack certify`'s load all read
 * them from here (docs/load.md, "Options", says the same).
 *
 * The spec's own limits (300 s, the tolerances) are not load defaults: they are in
 * src/spec.ts; the request timeout is the target's (`TACK_REQUEST_TIMEOUT_MS`).
 */
export const LOAD_DEFAULTS = {
  /** Connections, one chain each (the total across shards). */
  connections: 10,
  /** The measured phase. */
  duration: '10s',
  /** Load sent and checked before the measured phase, not measured (see `capacity.warmupMs` for a search). */
  warmupMs: 0,
  /** Every profile's thresholds when no --threshold is given: a guard against a hanging target, not a service level. */
  thresholds: ['p99<1s'],
  /** --tolerance-pct of a --compare comparison, in percent. */
  tolerancePct: 20,
  /** Unexpected non-2xx, transport errors and timeouts fail the run (--no-fail-on-errors turns it off). */
  failOnErrors: true,
  /** `--out prometheus=URL`: how often the figures are pushed while a run lasts (and once at its end). */
  pushIntervalMs: 5000,
  /** The exchange profiles' race probe: the share of chains that send their current token twice at the same moment (--race-probe). */
  raceProbeShare: 0.1,
  /** Where `tack load export artillery` writes, under the reports folder. */
  exportFolder: 'artillery',
  /** `--find-capacity`. */
  capacity: { startRate: 50, factor: 2, stepMs: 5000, maxRate: 102_400, warmupMs: 5000, resolutionPct: 10 },
} as const;
