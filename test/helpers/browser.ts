/**
 * The browser tack's own tests drive: the one tack itself would find (TACK_BROWSER, Playwright's,
 * the PATH, where Chrome and Edge install), so that a test skips only where tack would.
 *
 * Without one, the browser tests are skipped saying why, except in CI: there a missing browser
 * fails the run (test/ci/browser.test.ts), so a green CI has exercised every browser rule.
 */
import type { Browser } from 'playwright-core';
import { launchBrowser, type LentBrowser } from '../../src/harness/browser/browser-host.js';
import { findBrowser } from '../../src/harness/browser/executable.js';

export const BROWSER = findBrowser(process.env['TACK_BROWSER']);

/** A browser of the worker's pool: launched on first use, lent to one run at a time. */
interface Slot {
  browser: Promise<Browser> | undefined;
  leased: boolean;
}

/** The worker's browsers: as many as its runs ever overlapped (the fault matrix runs two at once). */
const pool: Slot[] = [];

/**
 * The slot's Chromium, launched on first use as a run launches its own (launchBrowser) and
 * relaunched if it went away; Playwright ends it when the worker exits. Each run still opens and
 * closes its own contexts in it (cookies, storage, permissions and clock never leak between runs, as
 * between a run's tests), so what a run sees is what it would see in a browser of its own; only the
 * launch is saved.
 */
async function browserOf(slot: Slot): Promise<Browser> {
  if (!BROWSER.found) throw new Error(`no browser: ${BROWSER.reason}`);
  const path = BROWSER.path;
  const current = slot.browser ? await slot.browser.catch(() => undefined) : undefined;
  if (current?.isConnected()) return current;
  const launched = launchBrowser(path);
  slot.browser = launched;
  launched.catch(() => {
    if (slot.browser === launched) slot.browser = undefined;
  });
  return launched;
}

/**
 * A browser of the worker's pool for a run whose TACK_BROWSER finds `path` (only the browser the tests
 * find, never another a test names), lent to that run alone: runs of a worker that overlap (the fault
 * matrix runs two at once) would otherwise share a browser's one clipboard, and a Copy in one would be
 * read by the other. Each overlapping run gets a browser of its own, launched once and lent again to
 * later runs. `release` when the run ends.
 */
export function leaseSharedBrowser(lookup: ReturnType<typeof findBrowser>): { readonly browser: LentBrowser | undefined; release(): void } {
  if (!(lookup.found && BROWSER.found && lookup.path === BROWSER.path)) return { browser: undefined, release: () => undefined };
  let slot = pool.find((s) => !s.leased);
  if (slot === undefined) {
    slot = { browser: undefined, leased: false };
    pool.push(slot);
  }
  const mine = slot;
  mine.leased = true;
  let held = true;
  return {
    browser: () => browserOf(mine),
    release: () => {
      if (held) mine.leased = false;
      held = false;
    },
  };
}

/** Whether the variables say this is a CI run: CI set, as CI systems do (GitHub, GitLab...), and not 'false' or '0'. */
export function inCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = env['CI']?.trim().toLowerCase();
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
}

/** Why the browser tests are skipped here (empty when a browser is found). */
export function noBrowserWords(): string {
  return BROWSER.found ? '' : ` (skipped: ${BROWSER.reason})`;
}
