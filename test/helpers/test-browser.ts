/**
 * The browser tack's own tests drive, named to every run they start as TACK_BROWSER: the one
 * TACK_BROWSER names; else Debian's headless shell where it is installed (`apt-get install
 * chromium-headless-shell`, as .ci/run does); else none, and runs find theirs as tack does.
 *
 * The headless shell is the same Chromium build without the desktop browser around it, the browser
 * Playwright itself runs headless; a run of the token page's rules in it costs about 8 s of CPU
 * against 11 s in `chromium`. What users run by default (the contract: Playwright's lookup, then
 * /usr/bin/chromium) stays proven: conformance.test.ts's full run drives `chromium` itself.
 */
import { existsSync } from 'node:fs';

export const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/** The full browser the token-page contract names as the default after Playwright's own. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/** TACK_BROWSER for the test workers (vitest.config.ts sets it in their environment). */
export function testBrowserEnv(env: NodeJS.ProcessEnv, exists: (path: string) => boolean = existsSync): Record<string, string> {
  const named = env['TACK_BROWSER'];
  if (named !== undefined && named !== '') return { TACK_BROWSER: named };
  return exists(HEADLESS_SHELL) ? { TACK_BROWSER: HEADLESS_SHELL } : {};
}

/** The variable a test adds to the variables of a run it starts, so the run drives the workers' browser. */
export const BROWSER_ENV: Readonly<Record<string, string>> = testBrowserEnv(process.env);
