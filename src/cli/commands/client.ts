/**
 * `tack client <personal-token|partner-key> -- <command...>`: its options; the run itself is
 * src/cli/client-run.ts (`tack certify client` makes the same run with fixed settings).
 */
import type { Command } from 'commander';
import { CLIENT_DEFAULTS, type ClientCommandOptions, clientCommand } from '../client-run.js';
import { handleStopSignals } from '../../harness/interrupt.js';
import { PROFILES } from '../../../suites/client/evidence.js';
import { parseIntOption, parseList, reportsDirOf, reportsDirOption } from '../options.js';

export function registerClient(program: Command): void {
  const client = program
    .command('client')
    .description("certify a partner's client: run it against a scripted reference server, scenario by scenario, and judge what it sends (after --)")
    .argument('<profile>', `which credentials the client uses: ${PROFILES.join(' or ')}`)
    .argument('<command...>', 'the client to run, after -- (e.g. -- node sync.js)')
    .option('--run-timeout <seconds>', 'time limit of each run of the command', parseIntOption('--run-timeout'), CLIENT_DEFAULTS.runTimeoutS)
    .option('--deadline <seconds>', 'time limit of the whole certification', parseIntOption('--deadline'), CLIENT_DEFAULTS.deadlineS)
    .option('--max-requests <n>', 'requests one run may send before it is cut off', parseIntOption('--max-requests'), CLIENT_DEFAULTS.maxRequests)
    .option('--pass-env <names>', 'more variables to pass to the command (comma-separated; never TACK_*)', parseList, [])
    .option('--partner-headers <names>', 'the two partner header names given to the client (comma-separated)', parseList);
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
