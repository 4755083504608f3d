/**
 * The browser tack's own tests drive: the one tack itself would find (TACK_BROWSER, Playwright's,
 * the PATH, where Chrome and Edge install), so that a test skips only where tack would.
 *
 * Without one, the browser tests are skipped saying why, except in CI: there a missing browser
 * fails the run (test/ci/browser.test.ts), so a green CI has exercised every browser rule.
 */
import { findBrowser } from '../../src/harness/browser/executable.js';

export const BROWSER = findBrowser(process.env['TACK_BROWSER']);

/** Whether the variables say this is a CI run: CI set, as CI systems do (GitHub, GitLab...), and not 'false' or '0'. */
export function inCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = env['CI']?.trim().toLowerCase();
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
}

/** Why the browser tests are skipped here (empty when a browser is found). */
export function noBrowserWords(): string {
  return BROWSER.found ? '' : ` (skipped: ${BROWSER.reason})`;
}
