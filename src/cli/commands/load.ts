/**
 * `tack load PROFILE`: load the token-exchange hot path with one of the profiles of
 * `load-profiles/`, rotation-aware and correctness-checked; and `tack load merge a.json b.json ...`
 * to merge the results of shards. docs/load.md explains every option.
 */
import { type Command, Option } from 'commander';
import { LOAD_PROFILES, findProfile } from '../../../load-profiles/index.js';
import { join } from 'node:path';
import { TackError } from '../../harness/errors.js';
import { handleStopSignals } from '../../harness/interrupt.js';
import { writeArtilleryExport } from '../../load/artillery/export.js';
import { planCapacity, type CapacityPlan } from '../../load/capacity/capacity.js';
import { LOAD_DEFAULTS } from '../../load/defaults.js';
import { mergeResults } from '../../load/results/merge.js';
import { parseOuts } from '../../load/outputs/out.js';
import type { PrometheusOut } from '../../load/outputs/prometheus.js';
import { defaultResultPath, readLoadResult, writeLoadResult } from '../../load/result.js';
import { runLoad, type LoadIo } from '../../load/run.js';
import { parseShard } from '../../load/shard.js';
import { summaryText } from '../../load/report/summary.js';
import type { SystemUnderTest } from '../../load/types.js';
import { TACK_VERSION } from '../../version.js';
import { startBuiltIn } from '../built-in.js';
import {
  envFileOption,
  formerOption,
  OptionError,
  parseCount,
  parseDuration,
  parseNumber,
  parsePercentage,
  parsePercentageOrRate,
  parseRate,
  repeatable,
} from '../options.js';

export interface LoadCommandOptions {
  envFile?: string;
  connections: number;
  /** Default 10s; undefined when not given (so --find-capacity can refuse it). */
  duration?: string;
  /** Default 0s, or 5s before a capacity search; undefined when not given. */
  warmup?: string;
  rate?: string;
  threshold: string[];
  /** `--compare FILE`: an earlier result to compare with (`--baseline`, its former name). */
  compare?: string;
  /** `--tolerance-pct`: how much worse than `compare` is still fine (`--tolerance`, its former name). */
  tolerancePct: string;
  /** The result file (`--out FILE` or `--out json=FILE`). */
  out?: string;
  /** `--out prometheus=URL`: the remote-write URL. */
  prometheus?: string;
  pushInterval?: string;
  reports: string;
  shard?: string;
  tokenPool?: string;
  timeout?: string;
  allowRemote: boolean;
  fault: string[];
  failOnErrors: boolean;
  quiet: boolean;
  findCapacity?: boolean;
  startRate?: string;
  rateFactor?: string;
  rateIncrement?: string;
  stepDuration?: string;
  maxRate?: string;
  resolution?: string;
  allowUnstable?: boolean;
  sut?: string;
  sutVcpus?: string;
  /** `--race-probe 10%`, or false for `--no-race-probe`; undefined: the default share. */
  raceProbe?: string | false;
}

const CAPACITY_DEFAULTS = LOAD_DEFAULTS.capacity;

/** The options as commander hands them over: `--out` not yet split, the former spellings under their own names. */
export type LoadCommandLine = Omit<LoadCommandOptions, 'out' | 'reports'> & {
  reportsDir: string;
  reports?: string;
  out: string[];
  baseline?: string;
  tolerance?: string;
};

/** The load's options from the command line: `--out` split; a former spelling where the user gave it, as the user did. */
export function loadOptionsOf(cli: LoadCommandLine): LoadCommandOptions {
  const { baseline, tolerance, reportsDir, ...rest } = cli;
  const outs = parseOuts(cli.out);
  return {
    ...rest,
    compare: cli.compare ?? baseline,
    tolerancePct: tolerance ?? cli.tolerancePct,
    out: outs.file,
    prometheus: outs.prometheus,
    reports: cli.reports ?? reportsDir,
  };
}

/** `parse(text)` of an option given, else undefined. */
const given = <T>(text: string | undefined, parse: (text: string) => T): T | undefined => (text === undefined ? undefined : parse(text));

/** The capacity search the flags ask for, or undefined; its flags without --find-capacity are a usage error. */
function capacityPlanOf(opts: LoadCommandOptions): CapacityPlan | undefined {
  const flags = (
    [
      ['--start-rate', opts.startRate],
      ['--rate-factor', opts.rateFactor],
      ['--rate-increment', opts.rateIncrement],
      ['--step-duration', opts.stepDuration],
      ['--max-rate', opts.maxRate],
      ['--resolution', opts.resolution],
      ['--allow-unstable', opts.allowUnstable || undefined],
    ] as const
  ).filter(([, v]) => v !== undefined);
  if (!opts.findCapacity) {
    if (flags.length > 0) {
      throw new TackError('TACK_ERR_USAGE', `${flags.map(([f]) => f).join(', ')} ${flags.length > 1 ? 'apply' : 'applies'} only with --find-capacity`);
    }
    return undefined;
  }
  if (opts.duration !== undefined) throw new TackError('TACK_ERR_USAGE', '--find-capacity runs steps of --step-duration, not --duration: drop --duration');
  return planCapacity({
    startRate: given(opts.startRate, (t) => parseRate(t, '--start-rate')),
    factor: given(opts.rateFactor, (t) => parseNumber(t, '--rate-factor', '1.5')),
    increment: given(opts.rateIncrement, (t) => parseRate(t, '--rate-increment')),
    stepMs: given(opts.stepDuration, (t) => parseDuration(t, '--step-duration')),
    maxRate: given(opts.maxRate, (t) => parseRate(t, '--max-rate')),
    resolution: given(opts.resolution, (t) => parsePercentageOrRate(t, '--resolution')),
  });
}

/** `--out prometheus=URL` and `--push-interval`; the interval without the output is a usage error. */
function prometheusOf(opts: Pick<LoadCommandOptions, 'prometheus' | 'pushInterval'>): PrometheusOut | undefined {
  if (opts.prometheus === undefined) {
    if (opts.pushInterval !== undefined) throw new TackError('TACK_ERR_USAGE', '--push-interval applies only with --out prometheus=URL');
    return undefined;
  }
  const intervalMs = given(opts.pushInterval, (t) => parseDuration(t, '--push-interval', { minMs: 1000 })) ?? LOAD_DEFAULTS.pushIntervalMs;
  return { url: opts.prometheus, intervalMs };
}

/** `--sut` and `--sut-vcpus`, or undefined; a vCPU count that is no positive number is a usage error. */
export function sutOf(opts: Pick<LoadCommandOptions, 'sut' | 'sutVcpus'>): SystemUnderTest | undefined {
  const vcpus = given(opts.sutVcpus, (t) => parseNumber(t, '--sut-vcpus', '4 or 0.5'));
  if (vcpus !== undefined && !(vcpus > 0)) throw new OptionError('--sut-vcpus', 'number', 'a positive number of vCPUs, e.g. 4 or 0.5', opts.sutVcpus!);
  if (opts.sut === undefined) {
    if (vcpus !== undefined) throw new TackError('TACK_ERR_USAGE', '--sut-vcpus needs --sut "text" naming the system under test');
    return undefined;
  }
  const name = opts.sut.trim();
  if (name === '') throw new TackError('TACK_ERR_USAGE', '--sut takes a description of the system under test, e.g. "Keycloak 26.1, 2 pods"');
  return { name, vcpus: vcpus ?? null };
}

/** The share of chains that probe races (0 to 1): --race-probe N%, 0 for --no-race-probe, else the default. */
export function raceProbeShareOf(value: string | false | undefined): number {
  if (value === false) return 0;
  if (value === undefined) return LOAD_DEFAULTS.raceProbeShare;
  return parsePercentage(value, '--race-probe', { max: 100 }) / 100;
}

/** --warmup, or its default: none for a fixed load, a few seconds before a capacity search (its first step meets warm connections). */
export function warmupMsOf(opts: Pick<LoadCommandOptions, 'warmup'>, capacity: boolean): number {
  if (opts.warmup !== undefined) return parseDuration(opts.warmup, '--warmup');
  return capacity ? CAPACITY_DEFAULTS.warmupMs : LOAD_DEFAULTS.warmupMs;
}

export function registerLoad(program: Command): void {
  const load = envFileOption(
    program
      .command('load')
      .description(
        `load a hot path of the target, rotation-aware and correctness-checked (profiles: ${LOAD_PROFILES.map((p) => p.name).join(', ')}); ` +
          '"tack load merge a.json b.json ..." merges shard results; "tack load export artillery PROFILE [--out DIR]" writes an Artillery script and processor',
      )
      .argument('<profile>', `${LOAD_PROFILES.map((p) => p.name).join(' | ')} | merge | export`)
      .argument('[files...]', 'merge: the result files to merge; export: artillery PROFILE'),
  ).option(
    '--connections <n>',
    'connections (one token chain each), in total across shards',
    (v: string) => parseCount(v, '--connections'),
    LOAD_DEFAULTS.connections,
  );
  load
    .option('--duration <time>', `length of the measured phase, e.g. 30s or 2m (warmup + duration at most 1h); default ${LOAD_DEFAULTS.duration}`)
    .option(
      '--warmup <time>',
      `load sent, checked and not measured before the measured phase (default ${LOAD_DEFAULTS.warmupMs / 1000}s; ` +
        `${CAPACITY_DEFAULTS.warmupMs / 1000}s before a capacity search)`,
    )
    .option('--rate <n>', 'fixed overall rate in requests per second (open model, see docs/load.md); default: as fast as answers come')
    .addOption(
      new Option('--threshold <expr>', "fail (exit 4) unless it holds, e.g. 'p99<20ms', 'errors==0', 'rps>=5000' (repeatable; replaces the profile's defaults)")
        .argParser(repeatable)
        .default([]),
    )
    .option('--compare <results.json>', 'an earlier result of the same profile: flag regressions beyond --tolerance-pct (exit 4)')
    .option('--tolerance-pct <pct>', 'how much worse than --compare is still fine, e.g. 20%', `${LOAD_DEFAULTS.tolerancePct}%`)
    .addOption(
      new Option(
        '--out <target>',
        'result JSON path (or json=FILE; the HTML page goes beside it), default reports/load-<profile>-<time>.json; ' +
          'prometheus=URL pushes the figures while the run lasts through Prometheus remote write, e.g. prometheus=http://127.0.0.1:9090/api/v1/write ' +
          `(repeatable); export: the folder, default reports/${LOAD_DEFAULTS.exportFolder}`,
      )
        .argParser(repeatable)
        .default([]),
    )
    .option(
      '--push-interval <time>',
      `--out prometheus=URL: how often the figures are pushed (default ${LOAD_DEFAULTS.pushIntervalMs / 1000}s; and once at the end)`,
    )
    .option('--reports-dir <dir>', 'folder of the default result path (under the current directory by default)', 'reports')
    .option('--shard <i/n>', 'this runner is shard i of n: it takes its share of connections, rate and token pool')
    .option('--token-pool <file>', 'hookless mode: one personal API token per line, rewritten with the rotated tokens (or TACK_LOAD_TOKEN_POOL)')
    .option('--timeout <time>', 'per-request timeout, e.g. 2s (default TACK_REQUEST_TIMEOUT_MS)')
    .option('--allow-remote', 'allow load on a target that is not on this machine (loopback only by default)', false)
    .addOption(new Option('--fault <name>', 'built-in server only: start it with this fault (repeatable)').argParser(repeatable).default([]))
    .option(
      '--no-fail-on-errors',
      'report unexpected non-2xx, transport errors and timeouts without failing the run (broken chains and answers against the spec still fail it)',
    )
    .option(
      '--race-probe <share>',
      'exchange profiles: the share of chains that now and then send their token twice at the same moment; a fork fails the run ' +
        `(default ${LOAD_DEFAULTS.raceProbeShare * 100}%, at least 3 chains; 0% turns it off)`,
    )
    .option('--no-race-probe', 'exchange profiles: send no race probe')
    .option('--quiet', 'no progress lines', false)
    .option('--sut <text>', 'the system under test, in your words (e.g. "Keycloak 26.1, 2 pods, UAT"): recorded in the result and shown on the pages')
    .option('--sut-vcpus <n>', "the system under test's vCPUs: the capacity is then also given per vCPU")
    .option(
      '--find-capacity',
      'capacity search: open-model steps of offered rate, each judged on the thresholds and correctness, a breach retried once, ' +
        'then bisection to --resolution and a confirmation of the knee (exit 0 if one held and was confirmed, 5 if it was unstable, ' +
        '4 if none held, 1 on anything against the spec)',
    )
    .option('--start-rate <n>', `--find-capacity: rate of the first step, req/s (default ${CAPACITY_DEFAULTS.startRate})`)
    .option('--rate-factor <f>', `--find-capacity: each step's rate is the previous one times F (default ${CAPACITY_DEFAULTS.factor})`)
    .option('--rate-increment <n>', '--find-capacity: each step adds N req/s instead (not with --rate-factor)')
    .option('--step-duration <time>', `--find-capacity: length of each step (default ${CAPACITY_DEFAULTS.stepMs / 1000}s)`)
    .option('--max-rate <n>', `--find-capacity: the highest rate tried, req/s (default ${CAPACITY_DEFAULTS.maxRate})`)
    .option(
      '--resolution <r>',
      '--find-capacity: bisect between the held and the breached rate until they are this close: ' +
        `a share of the held rate (10%) or req/s (default ${CAPACITY_DEFAULTS.resolutionPct}%)`,
    )
    .option('--allow-unstable', '--find-capacity: exit 0, not 5, when the knee did not repeat (the result still says unstable)');
  formerOption(load, '--reports <dir>', '--reports-dir');
  formerOption(load, '--baseline <results.json>', '--compare');
  formerOption(load, '--tolerance <pct>', '--tolerance-pct');
  load.action(async (profile: string, files: string[], cli: LoadCommandLine) => {
    const opts = loadOptionsOf(cli);
    // Ctrl-C and a CI runner's SIGTERM alike: drain, save the token pool's rotations, revoke, report,
    // exit 130 / 143; a second signal exits at once (src/harness/interrupt.ts).
    const stop = handleStopSignals((s) => process.stderr.write(s));
    try {
      const io = { write: (s: string) => process.stdout.write(s), progress: (s: string) => process.stderr.write(s) };
      const code = await loadCommand(profile, files, opts, io, process.env, stop.interrupt.abortSignal);
      process.exitCode = stop.interrupt.exitCode ?? code;
    } finally {
      stop.uninstall();
    }
  });
}

/** The whole command as a function, so tests drive it in-process. Returns the exit code. */
export async function loadCommand(
  name: string,
  files: readonly string[],
  opts: LoadCommandOptions,
  io: LoadIo,
  env: NodeJS.ProcessEnv = process.env,
  signal?: AbortSignal,
): Promise<number> {
  if ((name === 'merge' || name === 'export') && (opts.prometheus !== undefined || opts.pushInterval !== undefined))
    throw new TackError('TACK_ERR_USAGE', `--out prometheus=URL and --push-interval apply to a load run, not to tack load ${name}`);
  if (name === 'merge') return mergeCommand(files, opts, io);
  if (name === 'export') return exportCommand(files, opts, io);
  const profile = findProfile(name);
  if (!profile) throw new TackError('TACK_ERR_USAGE', `unknown load profile "${name}"; profiles: ${LOAD_PROFILES.map((p) => p.name).join(', ')} (or merge)`);
  if (files.length > 0) throw new TackError('TACK_ERR_USAGE', `tack load ${name} takes no file arguments (only tack load merge does)`);
  const tolerance = parsePercentage(opts.tolerancePct, '--tolerance-pct', { bare: 'percent' });
  const rate = given(opts.rate, (t) => parseRate(t, '--rate'));
  const capacity = capacityPlanOf(opts);
  if (opts.raceProbe !== undefined && !profile.kinds.includes('exchange')) {
    throw new TackError('TACK_ERR_USAGE', `--race-probe and --no-race-probe apply to the exchange profiles only, not ${profile.name}`);
  }
  const raceProbeShare = raceProbeShareOf(opts.raceProbe);
  const outcome = await runLoad(
    {
      profile,
      envFile: opts.envFile,
      env,
      connections: opts.connections,
      durationMs: parseDuration(opts.duration ?? LOAD_DEFAULTS.duration, '--duration'),
      warmupMs: warmupMsOf(opts, capacity !== undefined),
      rate,
      thresholds: opts.threshold,
      baseline: opts.compare,
      tolerancePct: tolerance,
      out: opts.out,
      reportsDir: opts.reports,
      shard: opts.shard === undefined ? undefined : parseShard(opts.shard),
      tokenPool: opts.tokenPool,
      allowRemote: opts.allowRemote,
      faults: opts.fault,
      builtIn: startBuiltIn,
      timeoutMs: given(opts.timeout, (t) => parseDuration(t, '--timeout')),
      failOnErrors: opts.failOnErrors,
      quiet: opts.quiet,
      version: TACK_VERSION,
      signal,
      capacity,
      prometheus: prometheusOf(opts),
      allowUnstable: opts.allowUnstable === true,
      sut: sutOf(opts),
      raceProbeShare,
    },
    io,
  );
  return outcome.exitCode;
}

function mergeCommand(files: readonly string[], opts: LoadCommandOptions, io: LoadIo): Promise<number> {
  if (files.length === 0)
    throw new TackError('TACK_ERR_USAGE', 'tack load merge needs the result files to merge: tack load merge a.json b.json [--out merged.json]');
  const inputs = files.map((file) => ({ file, result: readLoadResult(file, 'tack load merge') }));
  const merged = mergeResults(inputs, opts.threshold);
  const out = opts.out ?? defaultResultPath(opts.reports, `${merged.profile}-merged`, new Date(), null);
  const written = writeLoadResult(merged, out, undefined);
  io.write(summaryText(merged, written));
  return Promise.resolve(merged.verdict.exitCode);
}

/**
 * `tack load export artillery PROFILE`: the script and processor of src/load/artillery/, in
 * `--out DIR` (default reports/artillery). Uses --connections (virtual users, one chain each),
 * --duration, --threshold, --timeout and --no-fail-on-errors; flags that mean nothing to an
 * Artillery script are refused rather than silently dropped.
 */
async function exportCommand(args: readonly string[], opts: LoadCommandOptions, io: LoadIo): Promise<number> {
  const [format, name, ...rest] = args;
  const names = LOAD_PROFILES.map((p) => p.name).join(', ');
  if (format !== 'artillery' || name === undefined || rest.length > 0) {
    throw new TackError('TACK_ERR_USAGE', `tack load export takes a format and a profile: tack load export artillery PROFILE [--out DIR] (profiles: ${names})`);
  }
  const profile = findProfile(name);
  if (!profile) throw new TackError('TACK_ERR_USAGE', `unknown load profile "${name}"; profiles: ${names}`);
  const meaningless = (
    [
      ['--rate', opts.rate],
      ['--shard', opts.shard],
      ['--token-pool', opts.tokenPool],
      ['--compare', opts.compare],
      ['--find-capacity', opts.findCapacity],
      ['--fault', opts.fault.length > 0 ? opts.fault : undefined],
      ['--warmup', opts.warmup !== '0s' ? opts.warmup : undefined],
      ['--sut', opts.sut],
      ['--sut-vcpus', opts.sutVcpus],
      ['--race-probe', opts.raceProbe === undefined ? undefined : String(opts.raceProbe)],
    ] as const
  ).filter(([, v]) => v !== undefined && v !== false);
  if (meaningless.length > 0) {
    const flags = meaningless.map(([f]) => f).join(', ');
    throw new TackError('TACK_ERR_USAGE', `tack load export artillery does not use ${flags} (see docs/load.md, "Beyond one machine ...: Artillery")`);
  }
  const files = await writeArtilleryExport(
    {
      profile,
      connections: opts.connections,
      durationMs: parseDuration(opts.duration ?? LOAD_DEFAULTS.duration, '--duration'),
      thresholds: opts.threshold,
      failOnErrors: opts.failOnErrors,
      timeoutMs: given(opts.timeout, (t) => parseDuration(t, '--timeout')),
      version: TACK_VERSION,
    },
    opts.out ?? join(opts.reports, LOAD_DEFAULTS.exportFolder),
  );
  io.write(
    `Artillery script: ${files.script}\nprocessor:        ${files.processor}\n` +
      `run it with Artillery installed (npm ci --prefix load/artillery) and the TACK_* variables of the target set:\n` +
      `  ARTILLERY_DISABLE_TELEMETRY=true npx --no-install --prefix load/artillery artillery run ${files.script}\n`,
  );
  return 0;
}
