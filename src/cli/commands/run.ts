/**
 * `tack run`: its options; the run itself is src/cli/conformance-run.ts (`tack certify` makes the
 * same run with fixed settings).
 */
import { type Command, Option } from 'commander';
import { runCommand, type RunCommandOptions } from '../conformance-run.js';
import { handleStopSignals } from '../../harness/interrupt.js';
import { envFileOption, formerOption, parseCount, parseList, parseRate, repeatable, reportsDirOf, reportsDirOption } from '../options.js';

/** The options as commander hands them over, the former spellings under their own names. */
export type RunCommandLine = Omit<RunCommandOptions, 'reports'> & { reportsDir: string; reports?: string; rate?: number };

/** The run's options from the command line: a new spelling wins over its former one. */
export function runOptionsOf(opts: RunCommandLine): RunCommandOptions {
  const { rate, reportsDir, ...rest } = opts;
  return { ...rest, maxRps: rate ?? opts.maxRps, reports: reportsDirOf(opts) };
}

export function registerRun(program: Command): void {
  const run = envFileOption(
    program.command('run').description('check every rule of the spec against the target (the built-in reference server when TACK_BASE_URL is unset)'),
  )
    .option('--only <rules>', 'check only these rule ids (comma-separated)', parseList, [])
    .option('--seed <n>', 'seed of the property-based suites (printed with every failure)', (v: string) => parseCount(v, '--seed'))
    .option('--runs <n>', 'runs per property', (v: string) => parseCount(v, '--runs'), 12)
    .option('--path <path>', 'replay path of a failed property (from a failure report)')
    .option('--strict', 'SHOULD failures fail the run too', false)
    .option('--require-all', 'a MUST rule that could not be checked (skipped) fails the run', false);
  reportsDirOption(run)
    .addOption(new Option('--fault <name>', 'built-in server only: start it with this fault (repeatable)').argParser(repeatable).default([]))
    .option('--baseline <file>', 'expected failures (see docs/reports.md)')
    .option('--quiet', 'print only the summary', false)
    .option('--rate <n>', 'send at most n requests per second (a shared UAT); 429 Retry-After is always honoured', (v: string) => parseRate(v, '--rate'));
  formerOption(run, '--max-rps <n>', '--rate', (v) => parseRate(v, '--max-rps')).action(async (opts: RunCommandLine) => {
    const stop = handleStopSignals((s) => process.stderr.write(s));
    try {
      process.exitCode = await runCommand(runOptionsOf(opts), (s) => process.stdout.write(s), process.env, stop.interrupt);
    } finally {
      stop.uninstall();
    }
  });
}
