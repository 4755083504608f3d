/**
 * `tack doctor [--env-file F]`: checks that a configuration is ready for a run (src/doctor/)
 * and prints what a run would check and what it would skip, and why. Exit 0 when nothing stops a
 * run, 2 (TACK_ERR_DOCTOR, or the configuration's own code) when something does.
 */
import type { Command } from 'commander';
import { ALL_TESTS } from '../../../suites/index.js';
import type { Diagnosis } from '../../doctor/diagnosis.js';
import { type DoctorReport, runDoctor } from '../../doctor/index.js';
import type { RulePlan } from '../../runner/selection.js';
import { EXIT, isTackError, TackError } from '../../harness/errors.js';
import { openSession, redactorForConfig } from '../../harness/session.js';
import { startBuiltIn } from '../built-in.js';
import { groupSkips, skipLines, wrapIds } from '../../reporters/skips.js';
import { STATUS_MARK } from '../../reporters/outcome-words.js';
import { TACK_VERSION } from '../../version.js';
import { plural } from '../../text/plural.js';
import { envFileOption } from '../options.js';

interface DoctorCommandOptions {
  envFile?: string;
}

export function registerDoctor(program: Command): void {
  envFileOption(
    program
      .command('doctor')
      .description('check the configuration, hosts, credentials, test hook and token file, and say what a run would check or skip (rotates nothing)'),
  ).action(async (opts: DoctorCommandOptions) => {
    process.exitCode = await doctorCommand(opts, (s) => process.stdout.write(s));
  });
}

/** A diagnosis is marked as a rule's status is (a skipped one with a plain dash: a doctor's list is not a verdict). */
const MARK: Record<Diagnosis['status'], string> = { ok: STATUS_MARK.passed, problem: STATUS_MARK.failed, warning: STATUS_MARK.warning, skipped: '-' };

/** The whole command as a function, so tests drive it in-process. Returns the exit code. */
export async function doctorCommand(opts: DoctorCommandOptions, write: (s: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  write(`tack ${TACK_VERSION} doctor\n\n`);
  let session: Awaited<ReturnType<typeof openSession>>;
  try {
    session = await openSession({ envFile: opts.envFile, env, builtIn: startBuiltIn });
  } catch (error) {
    if (isTackError(error, 'TACK_ERR_CONFIG') || isTackError(error, 'TACK_ERR_ENV_FILE')) {
      const message = redactorForConfig(opts.envFile, env).redact(error.message);
      write(`config\n  ${MARK.problem} ${message.replace(/\n/g, '\n    ')}\n\n1 problem: fix it and run tack doctor again.\n`);
      return error.exitCode;
    }
    throw error;
  }
  try {
    const { target } = session;
    write(session.redactor.redact(`target ${target.baseUrl}${target.builtIn ? ' (built-in reference server)' : ''}, sign-in ${target.identityUrl}\n`));
    const report = await runDoctor({ target, http: session.http, redactor: session.redactor, tests: ALL_TESTS });
    write(session.redactor.redact(formatDoctor(report))); // skip reasons quote the hook's problem
    if (report.problems > 0) {
      write(`\n${plural(report.problems, 'problem')}: fix ${report.problems === 1 ? 'it' : 'them'} and run tack doctor again.\n`);
      return new TackError('TACK_ERR_DOCTOR').exitCode;
    }
    write('\nEverything is fine: a run can start.\n');
    return EXIT.ok;
  } finally {
    await session.close();
  }
}

function formatDoctor(report: DoctorReport): string {
  const out: string[] = [];
  let section = '';
  for (const f of report.diagnoses) {
    if (f.section !== section) {
      section = f.section;
      out.push('', section);
    }
    out.push(`  ${MARK[f.status]} ${f.text}`);
  }
  out.push('', ...formatPlan(report.plan));
  return `${out.join('\n')}\n`;
}

/** The run's own plan (src/runner/selection.ts planRules): what it would check, and what it would skip, grouped by why. */
function formatPlan(plan: readonly RulePlan[]): string[] {
  const checked = plan.filter((p) => p.skipReasons.length === 0);
  const skipped = plan.filter((p) => p.skipReasons.length > 0);
  const out = [`a run would check ${checked.length} of ${plan.length} rules${checked.length ? ':' : ''}`];
  if (checked.length) out.push(...wrapIds(checked.map((p) => p.rule)));
  if (skipped.length) {
    out.push('', `and skip ${skipped.length}, because:`);
    out.push(...skipLines(groupSkips(skipped.map((p) => ({ id: p.rule, reason: p.skipReasons.join('; ') })))));
  }
  return out;
}
