/**
 * `tack load merge a.json b.json ...`: one result from the results of shards that ran at the same
 * time against one target. Counters add up; histograms (overall, by status class and per second)
 * are decoded, added and encoded again, so every percentile of the merged result is exactly the
 * one of a single run that had seen all answers. Throughput is the sum of answers over the longest
 * measured phase.
 *
 * Thresholds are judged again on the merged figures: the ones the inputs carried (profile defaults
 * and --threshold), or those given to `merge` itself. Baseline comparisons are not carried over.
 */
import { TackError } from '../../harness/errors.js';
import { newRunId } from '../../harness/session.js';
import { worstHealth } from '../engine/generator.js';
import { encode, sumEncoded } from '../engine/histograms.js';
import { shardLabel } from '../shard.js';
import { evaluateThresholds, parseThreshold, type ThresholdSpec } from './thresholds.js';
import {
  emptyCounts,
  LOAD_SCHEMA,
  REQUEST_KINDS,
  STATUS_CLASSES,
  type ChainBreak,
  type Counts,
  type EndpointResult,
  type Latency,
  type LoadResult,
  type RaceProbeResult,
  type Second,
  type Threshold,
} from '../types.js';
import { judgeLoad } from './verdict.js';

const MAX_LISTED_BREAKS = 100;

interface MergeInput {
  readonly file: string;
  readonly result: LoadResult;
}

function addMap(into: Record<string, number>, from: Record<string, number>): void {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
}

function addCounts(into: Counts, from: Counts): void {
  into.responses += from.responses;
  into.ok += from.ok;
  into.expected += from.expected;
  into.non2xx += from.non2xx;
  into.malformed += from.malformed;
  into.broken += from.broken;
  into.lost += from.lost;
  into.errors += from.errors;
  into.timeouts += from.timeouts;
  into.rotations += from.rotations;
  into.raceProbes = (into.raceProbes ?? 0) + (from.raceProbes ?? 0);
  into.forks = (into.forks ?? 0) + (from.forks ?? 0);
  addMap(into.byStatus, from.byStatus);
  addMap(into.errorCodes, from.errorCodes);
  addMap(into.notes, from.notes);
}

function encodedSum(texts: readonly (string | undefined)[]): string {
  const h = sumEncoded(texts);
  try {
    return encode(h);
  } finally {
    h.destroy();
  }
}

/** Counts and histograms of several parts added up (the corrected histogram only when every part has one). */
function sumBook(parts: readonly EndpointResult[]): EndpointResult {
  const warmup = emptyCounts();
  const measured = emptyCounts();
  for (const p of parts) {
    addCounts(warmup, p.warmup);
    addCounts(measured, p.measured);
  }
  const byClass: Latency['byClass'] = {};
  for (const cls of STATUS_CLASSES) {
    const texts = parts.map((p) => p.latency.byClass[cls]).filter((x): x is string => x !== undefined);
    if (texts.length > 0) byClass[cls] = encodedSum(texts);
  }
  // The corrected histogram only means something if every part ran at a fixed rate.
  const corrected = parts.every((p) => p.latency.corrected !== null) ? encodedSum(parts.map((p) => p.latency.corrected ?? undefined)) : null;
  return { warmup, measured, latency: { unit: 'us', byClass, corrected } };
}

/** The whole and each request kind added up; kinds only when every result has them (older results do not). */
function sumResults(results: readonly LoadResult[]): EndpointResult & { endpoints: LoadResult['endpoints'] } {
  const whole = sumBook(results);
  if (!results.every((r) => r.endpoints !== undefined)) return { ...whole, endpoints: undefined };
  const endpoints: NonNullable<LoadResult['endpoints']> = {};
  for (const kind of REQUEST_KINDS) {
    const parts = results.flatMap((r) => (r.endpoints?.[kind] ? [r.endpoints[kind]] : []));
    if (parts.length > 0) endpoints[kind] = sumBook(parts);
  }
  return { ...whole, endpoints };
}

/**
 * The race probes of several results (shards, or a search's steps): the forks listed together, the
 * probing chains added; the policy and its words the first prober's, a fork judged if any part judged it.
 */
function mergeRace(parts: readonly { race?: RaceProbeResult | undefined; shard?: string }[], chainsAdd: boolean): RaceProbeResult | undefined {
  const races = parts.flatMap((p) => (p.race ? [{ race: p.race, shard: p.shard }] : []));
  const first = races.find((r) => r.race.policy !== null)?.race ?? races[0]?.race;
  if (!first) return undefined;
  const forks = races.flatMap(({ race, shard }) => race.forks.map((f) => (shard !== undefined ? { ...f, shard: f.shard ?? shard } : f)));
  const listed = forks.slice(0, MAX_LISTED_BREAKS);
  return {
    ...first,
    chains: chainsAdd ? races.reduce((n, r) => n + r.race.chains, 0) : first.chains,
    judged: races.some((r) => r.race.judged),
    forks: listed,
    forksNotListed: races.reduce((n, r) => n + r.race.forksNotListed, 0) + forks.length - listed.length,
  };
}

const maxOf = (xs: readonly (number | undefined)[]) => (xs.some((x) => x !== undefined) ? Math.max(...xs.map((x) => x ?? 0)) : undefined);

function mergeTimelines(timelines: readonly Second[][]): Second[] {
  const length = Math.max(0, ...timelines.map((t) => t.length));
  const out: Second[] = [];
  for (let s = 0; s < length; s++) {
    const row = timelines.map((t) => t[s]).filter((x): x is Second => x !== undefined);
    const busyPct = maxOf(row.map((x) => x.busyPct));
    const loopDelayUs = maxOf(row.map((x) => x.loopDelayUs));
    const late = row.some((x) => x.lateSlots !== undefined) ? row.reduce((n, x) => n + (x.lateSlots ?? 0), 0) : undefined;
    out.push({
      s,
      spanS: Math.max(...row.map((x) => x.spanS ?? 1)),
      responses: row.reduce((n, x) => n + x.responses, 0),
      non2xx: row.reduce((n, x) => n + x.non2xx, 0),
      errors: row.reduce((n, x) => n + x.errors, 0),
      timeouts: row.reduce((n, x) => n + x.timeouts, 0),
      latency: encodedSum(row.map((x) => x.latency)),
      ...(busyPct !== undefined ? { busyPct } : {}),
      ...(loopDelayUs !== undefined ? { loopDelayUs } : {}),
      ...(late !== undefined ? { lateSlots: late } : {}),
    });
  }
  return out;
}

export function mergeResults(inputs: readonly MergeInput[], cliThresholds: readonly string[] = []): LoadResult {
  if (inputs.length === 0) throw new TackError('TACK_ERR_USAGE', 'tack load merge needs at least one result file');
  const profiles = [...new Set(inputs.map((i) => i.result.profile))];
  if (profiles.length > 1)
    throw new TackError('TACK_ERR_USAGE', `tack load merge: the files are results of different profiles (${profiles.join(', ')}); merge shards of one profile`);
  // Shards of one run load one target. (Each built-in reference server has its own port, so
  // results against the built-in server are merged as one target.)
  const targets = [
    ...new Set(
      inputs.map((i) => (i.result.target.builtIn ? 'the built-in reference server' : `${i.result.target.baseUrl} with ${i.result.target.identityUrl}`)),
    ),
  ];
  if (targets.length > 1)
    throw new TackError('TACK_ERR_USAGE', `tack load merge: the files loaded different targets (${targets.join('; ')}); merge shards of one run`);
  const searches = inputs.filter((i) => i.result.capacity !== undefined).map((i) => i.file);
  if (searches.length > 0) {
    const what = searches.length > 1 ? 'are capacity searches' : 'is a capacity search';
    throw new TackError('TACK_ERR_USAGE', `tack load merge: ${searches.join(', ')} ${what}; only fixed-load shards merge`);
  }
  const results = inputs.map((i) => i.result);
  const first = results[0]!;
  const labelOf = (r: LoadResult) => shardLabel(r.settings.shard ?? undefined) ?? r.runId;
  const generator = worstHealth(results.flatMap((r) => (r.generator ? [{ label: `shard ${labelOf(r)}`, health: r.generator }] : [])));
  const breaks: ChainBreak[] = [];
  let breaksNotListed = 0;
  inputs.forEach(({ result }) => {
    const shard = result.settings.shard ? `${result.settings.shard.index}/${result.settings.shard.count}` : result.runId;
    for (const b of result.breaks) {
      if (breaks.length < MAX_LISTED_BREAKS) breaks.push({ ...b, shard: b.shard ?? shard });
      else breaksNotListed++;
    }
    breaksNotListed += result.breaksNotListed;
  });
  const rates = results.map((r) => r.settings.rate);
  const race = mergeRace(
    inputs.map(({ result }) => ({
      race: result.race,
      shard: result.settings.shard ? `${result.settings.shard.index}/${result.settings.shard.count}` : result.runId,
    })),
    true,
  );
  const merged: Omit<LoadResult, 'verdict' | 'thresholds'> = {
    schema: LOAD_SCHEMA,
    tack: first.tack,
    runId: `merged-${newRunId()}`,
    profile: first.profile,
    startedAt: results.map((r) => r.startedAt).sort()[0]!,
    finishedAt: results
      .map((r) => r.finishedAt)
      .sort()
      .at(-1)!,
    measuredS: Math.max(...results.map((r) => r.measuredS)),
    target: { ...first.target, faults: [...new Set(results.flatMap((r) => r.target.faults))] },
    ...(first.sut ? { sut: first.sut } : {}),
    settings: {
      connections: results.reduce((n, r) => n + r.settings.connections, 0),
      durationS: Math.max(...results.map((r) => r.settings.durationS)),
      warmupS: Math.max(...results.map((r) => r.settings.warmupS)),
      rate: rates.every((x) => x !== null) ? rates.reduce((n: number, x) => n + (x ?? 0), 0) : null,
      timeoutS: Math.max(...results.map((r) => r.settings.timeoutS)),
      shard: null,
      chains: [...new Set(results.map((r) => r.settings.chains))].join(','),
      failOnErrors: results.some((r) => r.settings.failOnErrors),
    },
    ...sumResults(results),
    generator,
    timeline: mergeTimelines(results.map((r) => r.timeline)),
    breaks,
    breaksNotListed,
    ...(race ? { race } : {}),
    mergedFrom: inputs.flatMap(({ file, result }) =>
      result.mergedFrom.length > 0
        ? result.mergedFrom
        : [{ runId: result.runId, shard: shardLabel(result.settings.shard ?? undefined), file, machine: result.machine, generator: result.generator }],
    ),
  };
  const specs: { spec: ThresholdSpec; source: Threshold['source'] }[] = [];
  if (cliThresholds.length > 0) specs.push(...cliThresholds.map((e) => ({ spec: parseThreshold(e), source: 'cli' as const })));
  else {
    const seen = new Set<string>();
    for (const t of results.flatMap((r) => r.thresholds)) {
      if (t.source === 'baseline' || seen.has(t.expr)) continue;
      seen.add(t.expr);
      specs.push({ spec: parseThreshold(t.expr), source: t.source });
    }
  }
  const draft: LoadResult = { ...merged, thresholds: [], verdict: { exitCode: 0, reasons: [] } };
  const thresholds = evaluateThresholds(draft, specs);
  return { ...draft, thresholds, verdict: judgeLoad(draft, thresholds) };
}

/**
 * The steps of one capacity search as one result, for the record: counts and histograms added
 * (whole and per request kind), the timelines end to end (each step's seconds after the previous
 * step's), the measured time summed. Its figures mix every step: the search's headline is a step's
 * own (capacity.steps). Thresholds and verdict are left to the caller.
 */
export function combineSteps(steps: readonly LoadResult[], warmupMs: number): LoadResult {
  const first = steps[0];
  if (!first) throw new Error('combineSteps needs at least one step');
  const timeline: Second[] = [];
  for (const r of steps) {
    const offset = timeline.length;
    for (const s of r.timeline) timeline.push({ ...s, s: offset + s.s });
  }
  const breaks = steps.flatMap((r) => r.breaks).slice(0, MAX_LISTED_BREAKS);
  const listed = steps.reduce((n, r) => n + r.breaks.length, 0);
  const measuredS = Math.round(steps.reduce((n, r) => n + r.measuredS, 0) * 1000) / 1000;
  const race = mergeRace(steps, false);
  return {
    ...first,
    finishedAt: steps[steps.length - 1]!.finishedAt,
    measuredS,
    settings: { ...first.settings, rate: null, durationS: measuredS, warmupS: warmupMs / 1000 },
    ...sumResults(steps),
    timeline,
    breaks,
    breaksNotListed: steps.reduce((n, r) => n + r.breaksNotListed, 0) + Math.max(0, listed - breaks.length),
    ...(race ? { race } : {}),
    thresholds: [],
    verdict: { exitCode: 0, reasons: [] },
  };
}
