/**
 * `tack certify [--env-file F]`: the evidence a partner hands over. A full conformance run with
 * fixed settings (so two certifications of one target are comparable), the exchange load profile,
 * and one `.tar.gz` bundle of results, transcript, reports and load figures with a manifest of
 * SHA-256 sums. `tack certify verify BUNDLE` checks every sum.
 *
 * `tack certify client <profile> -- <command...>` does the same for a partner's client: a `tack
 * client` run with fixed settings, bundled with its results and transcript (no load part).
 *
 * The sums show integrity (nothing changed since the bundle was made), not authorship.
 *
 * Stopped by SIGINT or SIGTERM, a certification writes what it judged (the run's reports, marked
 * `interrupted`), makes no bundle (a stopped certification certifies nothing), leaves no client
 * process and no server behind, and exits 130 or 143.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Command } from 'commander';
import { findProfile } from '../../../load-profiles/index.js';
import { EXIT, TackError } from '../../harness/errors.js';
import { handleStopSignals, type Interrupt, stopText } from '../../harness/interrupt.js';
import { LOAD_DEFAULTS } from '../../load/defaults.js';
import { runLoad } from '../../load/run.js';
import { createBundle, INTEGRITY_NOTE, sha256, verifyBundle, type BundleFile } from '../../reporters/bundle.js';
import { REPORT_FILES } from '../../reporters/index.js';
import { CATALOG_VERSION } from '../../rules/catalog.js';
import { TACK_VERSION } from '../../version.js';
import { startBuiltIn } from '../built-in.js';
import { CLIENT_DEFAULTS, clientRun } from '../client-run.js';
import { envFileOption, parseDuration, parseList, reportsDirOf, reportsDirOption } from '../options.js';
import { conformanceRun } from '../conformance-run.js';
import type { ResultsDocument } from '../../reporters/results-schema.js';

/** The fixed settings of a certification run. Changing them makes certifications incomparable. */
export const CERTIFY_SETTINGS = {
  seed: 20240601,
  // At least 100 runs per property: a boundary sequence was once missed at 12 (docs/reports.md, "Runs per property").
  runs: 100,
  strict: false,
  /** Per test: 100 runs of the lifecycle property against a remote target take minutes. */
  testTimeoutMs: 600_000,
  loadProfile: 'exchange',
  loadConnections: 10,
  loadWarmup: '2s',
  loadDuration: '10s',
} as const;

/** What the load part of a certification left for the bundle. */
interface CertifyLoad {
  readonly status: 'ran' | 'failed' | 'left-out';
  readonly reason: string;
  /** Files to bundle under load/. */
  readonly files: readonly string[];
  /** The load's exit code (4: a threshold was breached); undefined when it did not run. */
  readonly exitCode: number | undefined;
}

interface CertifyOptions {
  envFile?: string;
  out?: string;
  reports: string;
  load: boolean;
  allowRemote: boolean;
  /** Every MUST rule must be checked (default); `--no-require-all` certifies what could be checked. */
  requireAll?: boolean;
  /** Tests and demos only (not on the command line): a subset of rules, faults of the built-in server, a shorter load. */
  only?: string[];
  fault?: string[];
  loadTiming?: { durationMs: number; warmupMs: number };
}

export function registerCertify(program: Command): void {
  const certify = envFileOption(
    program
      .command('certify')
      .description('a full run with fixed settings plus the exchange load profile, bundled as .tar.gz with SHA-256 sums')
      // `tack certify client --reports-dir D` is the sub-command's option, not certify's own.
      .enablePositionalOptions(),
  ).option('--out <file>', 'the bundle to write (default: reports/tack-certification-<run-id>.tar.gz)');
  reportsDirOption(certify)
    .option('--no-load', 'leave the load profile out (the bundle says so)')
    .option('--no-require-all', 'certify what could be checked: MUST rules that were skipped do not fail the certification (the bundle says so)')
    .option('--allow-remote', 'let the load profile run against a target that is not on this machine (as tack load --allow-remote)', false)
    .action(async (opts: CertifyOptions & { reportsDir: string }) => {
      await withStopSignals((interrupt) => certifyCommand({ ...opts, reports: reportsDirOf(opts) }, (s) => process.stdout.write(s), process.env, interrupt));
    });
  const client = certify
    .command('client')
    .description("certify a partner's client (tack client with fixed settings), bundled with its results and transcript")
    .argument('<profile>', 'personal-token or partner-key')
    .argument('<command...>', 'the client to run, after --')
    .option('--out <file>', 'the bundle to write (default: reports/tack-client-certification-<run-id>.tar.gz)');
  reportsDirOption(client)
    .option('--pass-env <names>', 'more variables to pass to the command (comma-separated; never TACK_*)', parseList, [])
    .option('--no-require-all', 'certify what could be checked: MUST rules that were skipped do not fail the certification (the bundle says so)')
    .action(async (profile: string, command: string[], opts: CertifyClientOptions & { reportsDir: string }) => {
      await withStopSignals((interrupt) =>
        certifyClientCommand(profile, command, { ...opts, reports: reportsDirOf(opts) }, (s) => process.stdout.write(s), process.env, process.cwd(), interrupt),
      );
    });
  certify
    .command('verify <bundle>')
    .description('check every file of a certification bundle against its manifest of SHA-256 sums')
    .action(async (bundle: string) => {
      process.exitCode = await verifyCommand(bundle, (s) => process.stdout.write(s));
    });
}

interface CertifyClientOptions {
  out?: string;
  reports: string;
  passEnv?: string[];
  requireAll?: boolean;
  /** Tests only (not on the command line): shorter runs. */
  runTimeout?: number;
}

/** Runs a certification with the stop signals handled (src/harness/interrupt.ts); sets the exit code. */
async function withStopSignals(certify: (interrupt: Interrupt) => Promise<number>): Promise<void> {
  const stop = handleStopSignals((s) => process.stderr.write(s));
  try {
    process.exitCode = await certify(stop.interrupt);
  } finally {
    stop.uninstall();
  }
}

/** A stopped certification: its reports are kept, no bundle is made. */
function stopped(interrupt: Interrupt | undefined, runDir: string, write: (s: string) => void): number | undefined {
  if (interrupt?.signal === undefined) return undefined;
  write(`\ntack certify: ${stopText(interrupt.signal)}: no bundle made; what was judged is in ${runDir}\n`);
  return interrupt.exitCode;
}

export async function certifyCommand(
  opts: CertifyOptions,
  write: (s: string) => void,
  env: NodeJS.ProcessEnv = process.env,
  interrupt?: Interrupt,
): Promise<number> {
  write(
    `tack certify: seed ${CERTIFY_SETTINGS.seed}, ${CERTIFY_SETTINGS.runs} runs per property, every rule` +
      `${opts.load ? `, then the ${CERTIFY_SETTINGS.loadProfile} load profile` : ''}\n\n`,
  );
  const {
    document: doc,
    dir: runDir,
    exitCode: runExit,
  } = await conformanceRun(
    {
      ...(opts.envFile !== undefined ? { envFile: opts.envFile } : {}),
      only: opts.only ?? [],
      seed: CERTIFY_SETTINGS.seed,
      runs: CERTIFY_SETTINGS.runs,
      strict: CERTIFY_SETTINGS.strict,
      requireAll: opts.requireAll ?? true,
      testTimeoutMs: CERTIFY_SETTINGS.testTimeoutMs,
      reports: opts.reports,
      fault: opts.fault ?? [],
      quiet: false,
    },
    write,
    env,
    interrupt,
  );
  const stoppedRun = stopped(interrupt, runDir, write);
  if (stoppedRun !== undefined) return stoppedRun;

  let load: CertifyLoad;
  if (opts.load) {
    write(`\nLoad: the ${CERTIFY_SETTINGS.loadProfile} profile\n`);
    load = await certifyLoad(opts, join(runDir, 'load'), write, env, interrupt?.abortSignal);
    const stoppedLoad = stopped(interrupt, runDir, write);
    if (stoppedLoad !== undefined) return stoppedLoad;
  } else {
    load = { status: 'left-out', reason: 'left out with --no-load', files: [], exitCode: undefined };
  }
  if (load.status !== 'ran') write(`\nLoad: not in this bundle: ${load.reason}\n`);

  const out = opts.out ?? join(opts.reports, `tack-certification-${doc.run.id}.tar.gz`);
  const files: BundleFile[] = [
    ...REPORT_FILES.map((name) => ({ name: `run/${name}`, source: { path: join(runDir, name) } })),
    ...evidenceFiles(doc).map((file) => ({ name: `run/${file}`, source: { path: join(runDir, file) } })),
    ...load.files.map((path) => ({ name: `load/${basename(path)}`, source: { path } })),
  ];
  const exitCode = runExit !== EXIT.ok ? runExit : (load.exitCode ?? EXIT.ok);
  const about = {
    tack: TACK_VERSION,
    catalog: CATALOG_VERSION,
    run: doc.run.id,
    target: doc.target.baseUrl,
    builtIn: doc.target.builtIn,
    settings: { ...CERTIFY_SETTINGS, requireAll: opts.requireAll ?? true, only: doc.run.only, faults: doc.run.faults },
    conformance: { exitCode: runExit, startedAt: doc.run.startedAt, finishedAt: doc.run.finishedAt },
    load: { status: load.status, reason: load.reason, exitCode: load.exitCode ?? null },
    exitCode,
  };
  await bundle(out, `tack-certification-${doc.run.id}`, files, about, write);
  return exitCode;
}

/**
 * `tack certify client`: a `tack client` run with the default limits and every MUST required, its
 * results, transcript and reports bundled. The bundle's manifest says which profile and command.
 */
export async function certifyClientCommand(
  profile: string,
  command: readonly string[],
  opts: CertifyClientOptions,
  write: (s: string) => void,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
  interrupt?: Interrupt,
): Promise<number> {
  const requireAll = opts.requireAll ?? true;
  const settings = {
    runTimeoutS: opts.runTimeout ?? CLIENT_DEFAULTS.runTimeoutS,
    deadlineS: CLIENT_DEFAULTS.deadlineS,
    maxRequests: CLIENT_DEFAULTS.maxRequests,
  };
  write(`tack certify client: the ${profile} profile, every client rule${requireAll ? ' (every MUST must be checked)' : ''}\n\n`);
  const {
    document: doc,
    dir: runDir,
    exitCode,
  } = await clientRun(
    profile,
    command,
    {
      runTimeout: settings.runTimeoutS,
      deadline: settings.deadlineS,
      maxRequests: settings.maxRequests,
      passEnv: opts.passEnv ?? [],
      reports: opts.reports,
      requireAll,
    },
    write,
    env,
    cwd,
    interrupt,
  );
  const stoppedRun = stopped(interrupt, runDir, write);
  if (stoppedRun !== undefined) return stoppedRun;
  const out = opts.out ?? join(opts.reports, `tack-client-certification-${doc.run.id}.tar.gz`);
  const files: BundleFile[] = REPORT_FILES.map((name) => ({ name: `run/${name}`, source: { path: join(runDir, name) } }));
  const about = {
    kind: 'client',
    tack: TACK_VERSION,
    catalog: CATALOG_VERSION,
    run: doc.run.id,
    profile: doc.client?.profile ?? profile,
    command: doc.client?.command ?? '',
    settings: { ...settings, requireAll, partnerHeaders: doc.client?.partnerHeaders ?? [], passEnv: doc.client?.passEnv ?? [] },
    client: { exitCode, startedAt: doc.run.startedAt, finishedAt: doc.run.finishedAt },
    exitCode,
  };
  await bundle(out, `tack-client-certification-${doc.run.id}`, files, about, write);
  return exitCode;
}

async function bundle(out: string, root: string, files: readonly BundleFile[], about: Record<string, unknown>, write: (s: string) => void): Promise<void> {
  const manifest = await createBundle(out, root, files, about);
  write(`\nBundle: ${out} (${manifest.files.length} files + manifest.json)\n`);
  write(`SHA-256 of the bundle: ${sha256(readFileSync(out))}\n`);
  write(`Check it: tack certify verify ${out}\n${INTEGRITY_NOTE}\n`);
}

export async function verifyCommand(bundle: string, write: (s: string) => void): Promise<number> {
  const result = await verifyBundle(bundle);
  if (!result.ok) {
    throw new TackError('TACK_ERR_BUNDLE', `${bundle} does not verify:\n${result.problems.map((p) => `- ${p}`).join('\n')}`);
  }
  const about = result.manifest?.about ?? {};
  write(
    `${bundle}: all ${result.checked} files match manifest.json (run ${String(about.run ?? '?')}, tack ${String(about.tack ?? '?')}).\n${INTEGRITY_NOTE}\n`,
  );
  return EXIT.ok;
}

/** The exchange profile with the fixed certification settings; its JSON and HTML go to `dir`. */
async function certifyLoad(opts: CertifyOptions, dir: string, write: (s: string) => void, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<CertifyLoad> {
  const profile = findProfile(CERTIFY_SETTINGS.loadProfile);
  if (!profile)
    return { status: 'failed', reason: `this version of tack has no ${CERTIFY_SETTINGS.loadProfile} load profile`, files: [], exitCode: EXIT.config };
  const timing = opts.loadTiming ?? {
    durationMs: parseDuration(CERTIFY_SETTINGS.loadDuration, 'duration'),
    warmupMs: parseDuration(CERTIFY_SETTINGS.loadWarmup, 'warmup'),
  };
  try {
    const outcome = await runLoad(
      {
        profile,
        envFile: opts.envFile,
        env,
        connections: CERTIFY_SETTINGS.loadConnections,
        ...timing,
        thresholds: [],
        tolerancePct: LOAD_DEFAULTS.tolerancePct,
        out: join(dir, `load-${CERTIFY_SETTINGS.loadProfile}.json`),
        reportsDir: dir,
        allowRemote: opts.allowRemote,
        faults: opts.fault ?? [],
        builtIn: startBuiltIn,
        failOnErrors: LOAD_DEFAULTS.failOnErrors,
        quiet: true,
        version: TACK_VERSION,
        signal,
      },
      { write, progress: () => undefined },
    );
    const verdict = outcome.exitCode === 0 ? 'every threshold held' : `exit ${outcome.exitCode}: ${outcome.result.verdict.reasons.join('; ')}`;
    return { status: 'ran', reason: verdict, files: [outcome.files.json, outcome.files.html], exitCode: outcome.exitCode };
  } catch (error) {
    // A load that cannot start (e.g. a remote target without --allow-remote) leaves the conformance
    // evidence intact; the bundle says why the load figures are missing.
    const reason = error instanceof TackError ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : String(error);
    return { status: 'failed', reason, files: [], exitCode: error instanceof TackError ? error.exitCode : EXIT.incomplete };
  }
}

/** The screenshots (failed browser checks) and reproduce scripts (failed checks) the run wrote, as paths inside its folder. */
function evidenceFiles(doc: ResultsDocument): string[] {
  const shots = doc.rules.flatMap((r) => r.checks.flatMap((c) => (c.screenshot?.file === undefined ? [] : [c.screenshot.file])));
  return [...shots, ...doc.rules.flatMap((r) => (r.reproduce?.script === undefined ? [] : [r.reproduce.script]))];
}
