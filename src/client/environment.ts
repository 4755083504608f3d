/**
 * The environment a client under test runs with: the contract's PAYROLL_* variables, the few
 * variables any program needs to start (PATH, HOME, locale, temp folders, and their Windows
 * counterparts), and the names the user passes on with --pass-env. Nothing else of tack's own
 * environment: no TACK_* variable, no secret of tack's, no NODE_OPTIONS of the test runner.
 */
import { TackError } from '../harness/errors.js';

/** What a process needs to start and behave ordinarily. */
const BASE = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'TMP',
  'TEMP',
  'SYSTEMROOT',
  'SYSTEMDRIVE',
  'COMSPEC',
  'PATHEXT',
  'WINDIR',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'PROGRAMDATA',
];

/** Checks the names given to --pass-env: tack's own variables never reach the client. */
export function checkPassEnv(names: readonly string[]): void {
  for (const name of names) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new TackError('TACK_ERR_USAGE', `--pass-env takes variable names, got "${name}"`);
    const upper = name.toUpperCase();
    if (upper.startsWith('TACK_')) throw new TackError('TACK_ERR_USAGE', `--pass-env ${name}: tack's own variables are never passed to the client under test`);
    if (upper.startsWith('PAYROLL_')) throw new TackError('TACK_ERR_USAGE', `--pass-env ${name}: tack client sets the PAYROLL_* variables for each scenario`);
  }
}

export function clientEnvironment(parent: NodeJS.ProcessEnv, payroll: Readonly<Record<string, string>>, passEnv: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined) continue;
    if (BASE.includes(name.toUpperCase()) || name.startsWith('LC_') || passEnv.includes(name)) out[name] = value;
  }
  return { ...out, ...payroll };
}
