/**
 * What the files test/acceptance/independent-token-page*.test.ts share: the independent token page
 * (test/subjects/token-page-target), started per test and closed after it, and whether Chromium is
 * there to judge it. The tests are split over three files only so that three workers run them side
 * by side (each run in Chromium takes seconds); each starts its own target and shares nothing.
 */
import { afterEach } from 'vitest';
import { findBrowser } from '../../src/harness/browser/executable.js';
import type { RunResult } from '../../src/runner/index.js';
import { type FixtureOption, startTokenPageTarget, type TokenPageTarget } from '../subjects/token-page-target/index.js';

export const browser = findBrowser(process.env['TACK_BROWSER']);

/** The rules of who may generate that a browser also checks on the page (suites/sign-in/page-path.ts). */
export const PAGE_PATH_RULES = ['SIGNIN-FEATURE-GATE', 'SIGNIN-DIRECT-ONLY'];

export function notPassed(result: RunResult): string[] {
  return result.rules.filter((r) => r.status !== 'passed').map((r) => `${r.id}: ${r.status}: ${r.reason}`);
}

/**
 * Starts targets for the calling test file, each closed after its test. Call it at the top of a test
 * file (a module's own top level runs once per worker, not once per file).
 */
export function targetsOfThisFile(): (faults?: FixtureOption[]) => Promise<TokenPageTarget> {
  if (!browser.found) console.warn(`test/acceptance: the independent token page is not judged: ${browser.reason}`);
  const targets: TokenPageTarget[] = [];
  afterEach(async () => {
    await Promise.all(targets.splice(0).map((t) => t.close()));
  });
  return async (faults = []) => {
    const t = await startTokenPageTarget(faults);
    targets.push(t);
    return t;
  };
}
