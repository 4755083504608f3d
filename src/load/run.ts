/**
 * One `tack load PROFILE` run, as a function (the CLI and the tests call it): check the options
 * (a typo in a threshold is an error before any load is sent), open the session (the built-in
 * reference server when TACK_BASE_URL is unset), let the profile set up its chains, drive the
 * engine with a progress line a second, then judge, write `reports/load-<profile>-<time>.json` and
 * `.html`, and print the summary.
 */
import { randomInt } from 'node:crypto';
import { revokeEarlierRuns } from '../harness/cleanup/earlier-runs.js';
import { collectEnv } from '../harness/config.js';
import type { HookClient } from '../harness/clients/hook.js';
import { discoverHook } from '../harness/hook-discovery.js';
import { EXIT, redactError, TackError } from '../harness/errors.js';
import { Names } from '../harness/names.js';
import { openSession, type Session } from '../harness/session.js';
import { compareWithBaseline, baselineMismatch } from './results/comparison.js';
import { checkBound } from './capacity/capacity.js';
import { neededSamples, runCapacitySearch } from './capacity/capacity-run.js';
import { draftOf, type Common } from './results/draft.js';
import type { LoadIo, LoadOptions, LoadOutcome } from './options.js';
import { runEngine, type EngineOptions, type Progress, type Tally } from './engine/engine.js';
import { apiTokenChains } from './chains/chain-sources.js';
import { partnerSetup } from './chains/partner-setup.js';
import { raceSetup } from './chains/rotation-policy.js';
import { LOAD_DEFAULTS } from './defaults.js';
import type { Prepared, SetupContext } from './profile.js';
import { defaultResultPath, readLoadResult, writeLoadResult } from './result.js';
import { shareOf } from './shard.js';
import { progressLine, summaryText } from './report/summary.js';
import { probe, resolveEndpoint } from './engine/target.js';
import { checkScope, evaluateThresholds, parseThreshold, type ThresholdSpec } from './results/thresholds.js';
import type { LoadResult, Threshold, LoadVerdict } from './types.js';
import { machineNow } from './engine/machine.js';
import { PrometheusOutput } from './outputs/prometheus.js';
import { formatMs } from './units.js';
import { judgeLoad } from './results/verdict.js';
import { EarlyStop } from './results/early-stop.js';

/** No run, warmup included, lasts longer than this. */
export type { LoadIo, LoadOptions, LoadOutcome } from './options.js';

const MAX_RUN_MS = 3_600_000;

function checkOptions(o: LoadOptions): ThresholdSpec[] {
  if (!Number.isSafeInteger(o.connections) || o.connections < 1)
    throw new TackError('TACK_ERR_USAGE', `--connections must be 1 or more (got ${o.connections})`);
  if (o.durationMs < 500) throw new TackError('TACK_ERR_USAGE', '--duration must be at least 500ms');
  if (o.durationMs + o.warmupMs > MAX_RUN_MS) {
    throw new TackError(
      'TACK_ERR_USAGE',
      `--duration plus --warmup may be at most ${MAX_RUN_MS / 60_000} minutes (every load run is bounded); split longer soaks into several runs`,
    );
  }
  if (o.rate !== undefined && (!Number.isFinite(o.rate) || o.rate < 1))
    throw new TackError('TACK_ERR_USAGE', `--rate must be 1 request per second or more (got ${o.rate})`);
  if (o.shard && shareOf(o.connections, o.shard) < 1) {
    throw new TackError(
      'TACK_ERR_USAGE',
      `--shard ${o.shard.index}/${o.shard.count} gets no connection of --connections ${o.connections}: give at least one connection per shard`,
    );
  }
  if (o.shard && o.rate !== undefined && shareOf(o.rate, o.shard) < 1)
    throw new TackError('TACK_ERR_USAGE', `--rate ${o.rate} leaves shard ${o.shard.index}/${o.shard.count} no request per second`);
  if (o.capacity) {
    // A search steps one machine's offered rate; shards could not agree on when to step.
    const refuse = (message: string) => new TackError('TACK_ERR_USAGE', message);
    if (o.shard) throw refuse('--find-capacity runs on one machine: drop --shard (for more than one machine see docs/load.md, "Beyond one machine")');
    if (o.rate !== undefined) {
      throw refuse('--find-capacity sets the rate of each step itself: drop --rate and give --start-rate, --rate-factor or --rate-increment, --max-rate');
    }
    if (o.baseline !== undefined) throw refuse('--find-capacity cannot be compared with --compare: compare the capacity figures instead');
  }
  const specs = o.thresholds.map(parseThreshold);
  const abort = specs.find((s) => s.abort !== undefined);
  if (o.capacity && abort) {
    throw new TackError('TACK_ERR_USAGE', `--threshold '${abort.expr}': --find-capacity judges each step on its own; :abort stops a fixed run, drop it here`);
  }
  for (const spec of specs) checkScope(spec, o.profile);
  return specs;
}

export async function runLoad(options: LoadOptions, io: LoadIo): Promise<LoadOutcome> {
  const cliSpecs = checkOptions(options);
  const specs: { spec: ThresholdSpec; source: Threshold['source'] }[] =
    cliSpecs.length > 0
      ? cliSpecs.map((spec) => ({ spec, source: 'cli' }))
      : options.profile.defaultThresholds.map((e) => ({ spec: parseThreshold(e), source: 'profile' }));
  // A search whose steps the thresholds' sample rule would stretch past the bound is refused before any load.
  if (options.capacity) checkBound(options.capacity, neededSamples(specs, options.profile.kinds));
  const baseline = options.baseline !== undefined ? readLoadResult(options.baseline, '--compare') : undefined;
  const mismatch = baseline && baselineMismatch(options.profile.name, baseline);
  if (mismatch) throw new TackError('TACK_ERR_USAGE', `--compare ${options.baseline}: ${mismatch}`);
  const env = options.env ?? process.env;
  const tokenPool = options.tokenPool ?? collectEnv({ envFile: options.envFile, env }).TACK_LOAD_TOKEN_POOL;
  const session = await openSession({ envFile: options.envFile, env, faults: options.faults, ...(options.builtIn ? { builtIn: options.builtIn } : {}) });
  try {
    return await runInSession(session, options, io, specs, baseline, tokenPool);
  } catch (error) {
    throw redactError(error, (s) => session.redactor.redact(s));
  } finally {
    await session.close(); // revokes the API tokens the run generated (hook chains)
    const tokens = session.ledger.report();
    if (tokens.generated > 0) io.write(`API tokens generated ${tokens.generated}, revoked ${tokens.revoked}, left alive ${tokens.leftAlive}\n`);
  }
}

/** A run an `:abort` threshold stopped fails (exit 4, or 1 when correctness failed too), whatever the figures of the part that ran. */
function stoppedVerdict(v: LoadVerdict, reason: string): LoadVerdict {
  return { exitCode: v.exitCode === EXIT.ok ? EXIT.threshold : v.exitCode, reasons: [...v.reasons, reason] };
}

/** The target's hook, as `tack run` finds it (src/harness/hook-discovery.ts); a hook that cannot be used is said, not thrown. */
async function usableHook(session: Session, say: (s: string) => void): Promise<HookClient | undefined> {
  const { hook, problem } = await discoverHook(session);
  if (problem !== undefined) say(`the test hook could not be used: ${problem}`);
  return hook;
}

async function runInSession(
  session: Session,
  o: LoadOptions,
  io: LoadIo,
  specs: { spec: ThresholdSpec; source: Threshold['source'] }[],
  baseline: LoadResult | undefined,
  tokenPool: string | undefined,
): Promise<LoadOutcome> {
  const { target, redactor } = session;
  const say = (line: string) => io.write(redactor.redact(`  ${line}\n`));
  const connections = shareOf(o.connections, o.shard);
  const rate = o.rate !== undefined ? shareOf(o.rate, o.shard) : undefined;
  const timeoutMs = o.timeoutMs ?? target.requestTimeoutMs;
  const warmup = o.warmupMs > 0 ? ` after ${formatMs(o.warmupMs)} warmup` : '';
  const shape = o.capacity
    ? `capacity search, ${o.capacity.rates.length} step(s) at most of ${formatMs(o.capacity.stepMs)}${warmup}, open model`
    : `${formatMs(o.durationMs)}${warmup}, ${rate !== undefined ? `fixed rate ${rate} req/s` : 'closed model (as fast as answers come)'}`;
  io.write(
    redactor.redact(
      `tack ${o.version} load ${o.profile.name} ${session.runId}\n` +
        `target ${target.baseUrl}${target.builtIn ? ' (built-in reference server)' : ''}, sign-in ${target.identityUrl}\n` +
        `${connections} connection(s)${o.shard ? ` (shard ${o.shard.index}/${o.shard.count} of ${o.connections})` : ''}, ${shape}\n`,
    ),
  );
  const hook = await usableHook(session, say);
  for (const line of await revokeEarlierRuns(session)) say(line);
  const setup: SetupContext = {
    session,
    hook,
    names: new Names(session.runId, randomInt(2 ** 31)),
    connections,
    tokenPool,
    shard: o.shard,
    resolve: (url, role) => resolveEndpoint(url, role, o.allowRemote),
    say,
  };
  const prepared: Prepared = await o.profile.prepare({
    ...setup,
    apiTokenChains: (profile) => apiTokenChains(setup, profile),
    partner: (profile) => partnerSetup(setup, profile),
    raceProbe: (set) => raceSetup(setup, set, o.raceProbeShare ?? LOAD_DEFAULTS.raceProbeShare),
  });
  for (const endpoint of prepared.endpoints) await probe(endpoint, Math.min(timeoutMs, 5000));
  const where = prepared.endpoints.map((e) => `${e.connectUrl} (Host ${e.host})`).join(' and ');
  io.write(`  load goes to ${where}, one connection pool each; chains from ${prepared.chains}\n\n`);

  let poolError: unknown;
  const early = new EarlyStop(specs, o.failOnErrors);
  const engineOptions = (stepRate: number | undefined, warmupMs: number, durationMs: number, showProgress: boolean) => ({
    connections: prepared.connections,
    insecureTls: target.insecureTls,
    warmupMs,
    durationMs,
    rate: stepRate,
    timeoutMs,
    conversation: (i: number, tally: Tally) => prepared.conversation(i, tally),
    extraConnections: prepared.race?.chains ?? 0,
    signal: o.signal,
    stopWhen: early.active ? early.check : undefined,
    onProgress: (p: Progress) => {
      if (showProgress && !o.quiet) io.progress(`${progressLine(p)}\n`);
      // The last, partial second's line comes as the run ends: the final checkpoint follows it.
      if (p.final) return;
      prepared.checkpoint?.(false).catch((error: unknown) => {
        poolError ??= error;
      });
    },
  });
  const common: Common = {
    o,
    runId: session.runId,
    target: { baseUrl: target.baseUrl, identityUrl: target.identityUrl, builtIn: target.builtIn, faults: target.builtIn ? [...o.faults] : [] },
    timeoutMs,
    chains: prepared.chains,
    race: prepared.race,
  };
  // --out prometheus=URL: every engine run (each step of a search) pushed while it lasts and at its end.
  const live = o.prometheus
    ? new PrometheusOutput(o.prometheus, { runId: session.runId, profile: o.profile.name, targetUrl: target.baseUrl }, redactor, say)
    : undefined;
  const engine = (options: EngineOptions) => (live ? live.drive(options, runEngine) : runEngine(options));

  let result: LoadResult;
  const machine = machineNow();
  try {
    if (o.capacity) {
      // Everything printed goes through the redactor, step lines included.
      const redacted: LoadIo = { write: (s) => io.write(redactor.redact(s)), progress: (s) => io.progress(redactor.redact(s)) };
      result = await runCapacitySearch(o.capacity, common, specs, redacted, (r, w, d) => engine(engineOptions(r, w, d, false)), machine);
    } else {
      const ran = await engine(engineOptions(rate, o.warmupMs, o.durationMs, true));
      const draft: LoadResult = { ...draftOf(ran, common, rate ?? null, o.warmupMs, o.durationMs), machine: machine.finish() };
      const thresholds = evaluateThresholds(draft, specs);
      if (baseline) thresholds.push(...compareWithBaseline(draft, baseline, o.tolerancePct));
      result = { ...draft, thresholds, verdict: judgeLoad(draft, thresholds) };
      if (ran.stoppedBy !== undefined) result = { ...result, stoppedEarly: { reason: ran.stoppedBy }, verdict: stoppedVerdict(result.verdict, ran.stoppedBy) };
    }
    // Stopped (SIGINT, SIGTERM): the partial result says so.
    if (o.signal?.aborted) result = { ...result, interrupted: { signal: String(o.signal.reason) } };
    if (live) result = { ...result, outputs: { prometheus: await live.close() } };
  } finally {
    // Even when the engine failed: the pool file is the only copy of the tokens rotated so far.
    try {
      await prepared.checkpoint?.(true);
    } catch (error) {
      poolError ??= error;
    }
  }
  const name = o.capacity ? `${o.profile.name}-capacity` : o.profile.name;
  const jsonPath = o.out ?? defaultResultPath(o.reportsDir, name, new Date(result.startedAt), result.settings.shard);
  const files = writeLoadResult(result, jsonPath, redactor);
  io.write(redactor.redact(summaryText(result, files)));
  const pushed = result.outputs?.prometheus;
  if (pushed) io.write(`Metrics: ${pushed.pushes} push(es) to Prometheus at ${pushed.host}, ${pushed.failed} failed\n`);
  if (result.verdict.exitCode === EXIT.threshold) io.write(`tack: TACK_ERR_THRESHOLD: ${result.verdict.reasons.join('; ')}\n`);
  if (result.verdict.exitCode === EXIT.unstable) io.write(`tack: TACK_ERR_UNSTABLE: ${result.verdict.reasons.join('; ')}\n`);
  if (result.interrupted) io.write(`tack: TACK_ERR_INTERRUPTED: stopped by ${result.interrupted.signal}: the result covers the part that ran\n`);
  if (poolError !== undefined) throw poolError;
  return { exitCode: result.verdict.exitCode, result, files };
}
