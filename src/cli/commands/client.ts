/**
 * `tack client <personal-token|partner-key> -- <command...>`: its options; the run itself is
 * src/cli/client-run.ts (`tack certify client` makes the same run with fixed settings).
 */
import { type Command, Option } from 'commander';
import { CLIENT_DEFAULTS, type ClientCommandOptions, clientCommand } from '../client-run.js';
import { handleStopSignals } from '../../harness/interrupt.js';
import { PROFILES } from '../../../suites/client/evidence.js';
import { durationText, parseCount, parseDuration, parseHeaderPair, parseList, reportsDirOf, reportsDirOption } from '../options.js';

export function registerClient(program: Command): void {
  const client = program
    .command('client')
    .description("certify a partner's client: run it against a scripted reference server, scenario by scenario, and judge what it sends (after --)")
    .argument('<profile>', `which credentials the client uses: ${PROFILES.join(' or ')}`)
    .argument('<command...>', 'the client to run, after -- (e.g. -- node sync.js)')
    .addOption(
      new Option('--run-timeout <time>', 'time limit of each run of the command, e.g. 30s (a bare number is seconds)')
        .argParser((v: string) => seconds(v, '--run-timeout'))
        .default(CLIENT_DEFAULTS.runTimeoutS, durationText(CLIENT_DEFAULTS.runTimeoutS * 1000)),
    )
    .addOption(
      new Option('--deadline <time>', 'time limit of the whole certification, e.g. 5m (a bare number is seconds)')
        .argParser((v: string) => seconds(v, '--deadline'))
        .default(CLIENT_DEFAULTS.deadlineS, durationText(CLIENT_DEFAULTS.deadlineS * 1000)),
    )
    .option(
      '--max-requests <n>',
      'requests one run may send before it is cut off',
      (v: string) => parseCount(v, '--max-requests', { min: 1 }),
      CLIENT_DEFAULTS.maxRequests,
    )
    .option('--pass-env <names>', 'more variables to pass to the command (comma-separated; never TACK_*)', parseList, [])
    .option('--partner-headers <names>', 'the two partner header names given to the client (comma-separated)', (v: string) =>
      parseHeaderPair(v, '--partner-headers'),
    );
  reportsDirOption(client)
    .option('--baseline <file>', 'expected failures (see docs/reports.md)')
    .option('--strict', 'SHOULD failures fail the run too', false)
    .option('--require-all', 'a MUST rule that could not be checked (skipped) fails the run', false)
    .option('--quiet', 'print only the summary', false)
    .action(async (profile: string, command: string[], opts: ClientCommandOptions & { reportsDir: string }) => {
      const stop = handleStopSignals((s) => process.stderr.write(s));
      try {
        const reports = reportsDirOf(opts);
        process.exitCode = await clientCommand(
          profile,
          command,
          { ...opts, reports },
          (s) => process.stdout.write(s),
          process.env,
          process.cwd(),
          stop.interrupt,
        );
      } finally {
        stop.uninstall();
      }
    });
}

/** A time limit of `tack client`, at least 1 s, in seconds as the run and its reports count them. */
function seconds(text: string, option: string): number {
  return parseDuration(text, option, { minMs: 1000 }) / 1000;
}
