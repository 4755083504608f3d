/**
 * A run of `tack client` to its reports, as `tack client` and `tack certify client` make it: a
 * partner certifies its own client. The command is run once per scenario run against a scripted reference server
 * (docs/contracts/client-under-test.md); the client rules are judged from what it sent, its exit
 * codes and its output; the reports, baseline and exit codes are those of `tack run`.
 */
import { checkPassEnv } from '../client/environment.js';
import { runClient } from '../client/index.js';
import { EXIT, redactError, TackError } from '../harness/errors.js';
import { type Interrupt, stopText } from '../harness/interrupt.js';
import { Redactor } from '../harness/redactor.js';
import { newRunId } from '../harness/session.js';
import { Transcript } from '../harness/transcript.js';
import { ruleLine } from '../reporters/console.js';
import { PROFILES, type Profile } from '../../suites/client/evidence.js';
import { TACK_VERSION } from '../version.js';
import { resolveTarget, validateEnv } from '../harness/config.js';
import type { TargetConfig } from '../harness/target-config.js';
import { endRun, type RunEnd } from './run-end.js';

/** The defaults of `tack client`, in one place (certification uses them too). */
export const CLIENT_DEFAULTS = {
  runTimeoutS: 30,
  deadlineS: 300,
  maxRequests: 100,
  /** Not the documented Tenant-Key-1/2: a client that hard-codes those instead of reading PAYROLL_PARTNER_HEADERS is caught. */
  partnerHeaders: ['Partner-Key-Id', 'Partner-Key-Secret'] as const,
} as const;

export interface ClientCommandOptions {
  runTimeout?: number;
  deadline?: number;
  maxRequests?: number;
  passEnv?: string[];
  /** Two different header names (`parseHeaderPair`); the default is CLIENT_DEFAULTS.partnerHeaders. */
  partnerHeaders?: readonly [string, string];
  reports: string;
  baseline?: string;
  strict?: boolean;
  requireAll?: boolean;
  quiet?: boolean;
}

/** The whole command as a function, so tests drive it in-process. Returns the exit code. */
export async function clientCommand(
  profile: string,
  command: readonly string[],
  opts: ClientCommandOptions,
  write: (s: string) => void,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
  interrupt?: Interrupt,
): Promise<number> {
  return (await clientRun(profile, command, opts, write, env, cwd, interrupt)).exitCode;
}

/** The run to its end, in memory (`tack certify client` bundles it). */
export async function clientRun(
  profile: string,
  command: readonly string[],
  opts: ClientCommandOptions,
  write: (s: string) => void,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
  interrupt?: Interrupt,
): Promise<RunEnd> {
  if (!PROFILES.includes(profile as Profile)) throw new TackError('TACK_ERR_USAGE', `tack client takes a profile, ${PROFILES.join(' or ')}; got "${profile}"`);
  if (command.length === 0 || command[0] === '') {
    throw new TackError('TACK_ERR_USAGE', 'tack client needs the command to run after --, e.g. tack client personal-token -- node sync.js');
  }
  const passEnv = opts.passEnv ?? [];
  checkPassEnv(passEnv);
  const partnerHeaders = opts.partnerHeaders ?? CLIENT_DEFAULTS.partnerHeaders;
  const settings = {
    runTimeoutS: positive(opts.runTimeout ?? CLIENT_DEFAULTS.runTimeoutS, '--run-timeout'),
    deadlineS: positive(opts.deadline ?? CLIENT_DEFAULTS.deadlineS, '--deadline'),
    maxRequests: positive(opts.maxRequests ?? CLIENT_DEFAULTS.maxRequests, '--max-requests'),
  };
  const redactor = new Redactor();
  const transcript = new Transcript();
  const runId = newRunId();
  try {
    write(
      `tack ${TACK_VERSION} client ${profile} ${runId}\n` +
        `command: ${redactor.redact(command.join(' '))}\n` +
        `each scenario against a fresh scripted reference server; each run at most ${settings.runTimeoutS} s and ${settings.maxRequests} requests; ` +
        `all of it at most ${settings.deadlineS} s\n\n`,
    );
    const { result, report } = await runClient({
      profile: profile as Profile,
      command,
      cwd,
      parentEnv: env,
      passEnv,
      ...settings,
      partnerHeaders,
      runId,
      redactor,
      transcript,
      onScenario: opts.quiet === true ? undefined : (line) => write(`${line}\n`),
      ...(interrupt ? { signal: interrupt.abortSignal } : {}),
    });
    if (opts.quiet !== true) {
      write('\n');
      for (const rule of result.rules) write(`${redactor.redact(ruleLine(rule))}\n`);
    }
    const session = { target: clientTarget(partnerHeaders), redactor, transcript, runId };
    const policy = { strict: opts.strict ?? false, requireAll: opts.requireAll ?? false };
    const end = await endRun(session, result, { policy, baseline: opts.baseline, interrupt, only: [], reportsDir: opts.reports, client: report }, write);
    if (result.interrupted) write(`tack: TACK_ERR_INTERRUPTED: ${stopText(result.interrupted.signal)}; the scenarios not played to their end are not judged\n`);
    else if (end.exitCode === EXIT.nothingChecked) write('tack: TACK_ERR_NOTHING_CHECKED: no client rule could be checked: see the skip reasons\n');
    else if (result.deadline) {
      write(`tack: TACK_ERR_RUN_DEADLINE: the scenarios did not finish within ${result.deadline.seconds} s (--deadline); the rest are reported as error\n`);
    }
    return end;
  } catch (error) {
    throw redactError(error, (s) => redactor.redact(s));
  }
}

function positive(n: number, flag: string): number {
  if (n < 1) throw new TackError('TACK_ERR_USAGE', `${flag} must be at least 1`);
  return n;
}

/**
 * The "target" of a client run, as the reports describe it: tack's own scripted reference server,
 * a fresh one per scenario on loopback ports that change from scenario to scenario.
 */
function clientTarget(partnerHeaders: readonly [string, string]): TargetConfig {
  const target = resolveTarget(validateEnv({ TACK_BASE_URL: 'http://127.0.0.1', TACK_IDENTITY_URL: 'http://127.0.0.1/realms/payroll' }), true);
  return { ...target, partnerHeaders };
}
