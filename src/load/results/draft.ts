/**
 * A result, not yet judged, from one engine run: what `tack load` writes, before its thresholds and
 * verdict. Shared by a fixed run (../run.ts) and each step of a capacity search (../capacity/capacity-run.ts).
 */
import type { EngineResult } from '../engine/engine.js';
import { encode } from '../engine/histograms.js';
import type { LoadOptions } from '../options.js';
import { LOAD_SCHEMA, type LoadResult, type RaceProbeResult } from '../types.js';

/** What every result of one run shares. */
export interface Common {
  readonly o: LoadOptions;
  readonly runId: string;
  readonly target: LoadResult['target'];
  readonly timeoutMs: number;
  readonly chains: string;
  /** The race probe as set up (its forks are the engine's). */
  readonly race?: Omit<RaceProbeResult, 'forks' | 'forksNotListed'> | undefined;
}

/** The result of one engine run (thresholds and verdict left empty). Destroys the engine's live histograms. */
export function draftOf(engine: EngineResult, c: Common, rate: number | null, warmupMs: number, durationMs: number): LoadResult {
  const rec = engine.recorder;
  const draft: LoadResult = {
    schema: LOAD_SCHEMA,
    tack: { version: c.o.version },
    runId: c.runId,
    profile: c.o.profile.name,
    startedAt: engine.startedAt.toISOString(),
    finishedAt: engine.finishedAt.toISOString(),
    measuredS: Math.round(rec.measuredSeconds() * 1000) / 1000,
    target: c.target,
    ...(c.o.sut ? { sut: c.o.sut } : {}),
    settings: {
      connections: engine.connections,
      durationS: durationMs / 1000,
      warmupS: warmupMs / 1000,
      rate,
      timeoutS: c.timeoutMs / 1000,
      shard: c.o.shard ? { index: c.o.shard.index, count: c.o.shard.count } : null,
      chains: c.chains,
      failOnErrors: c.o.failOnErrors,
    },
    warmup: rec.warmup,
    measured: rec.measured,
    latency: { unit: 'us', byClass: rec.encodedByClass(), corrected: rec.corrected ? encode(rec.corrected) : null },
    endpoints: rec.endpoints(),
    generator: engine.generator,
    timeline: rec.timeline(),
    breaks: rec.breaks,
    breaksNotListed: rec.breaksNotListed,
    ...(c.race ? { race: { ...c.race, forks: rec.forks, forksNotListed: rec.forksNotListed } } : {}),
    thresholds: [],
    verdict: { exitCode: 0, reasons: [] },
    mergedFrom: [],
  };
  rec.destroy();
  return draft;
}
