/**
 * Which Chromium tack drives (token-page.md): TACK_BROWSER when set, else the one Playwright
 * installed for itself, else Debian's `/usr/bin/chromium`. Without one, the browser rules are
 * `skipped` with this reason and the install command, never passed.
 */
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

export const DEBIAN_CHROMIUM = '/usr/bin/chromium';
export const INSTALL_HINT = 'install it with `apt-get install -y chromium`, or set TACK_BROWSER=/path/to/chromium';

export type BrowserLookup = { readonly found: true; readonly path: string; readonly how: string } | { readonly found: false; readonly reason: string };

export function findBrowser(configured: string | undefined): BrowserLookup {
  if (configured !== undefined) {
    return existsSync(configured)
      ? { found: true, path: configured, how: 'TACK_BROWSER' }
      : { found: false, reason: `TACK_BROWSER=${configured} does not exist; ${INSTALL_HINT}` };
  }
  const own = playwrightsOwn();
  if (own !== undefined && existsSync(own)) return { found: true, path: own, how: "Playwright's own Chromium" };
  if (existsSync(DEBIAN_CHROMIUM)) return { found: true, path: DEBIAN_CHROMIUM, how: "Debian's chromium" };
  return { found: false, reason: `no Chromium found (TACK_BROWSER unset, none installed by Playwright, ${DEBIAN_CHROMIUM} missing); ${INSTALL_HINT}` };
}

function playwrightsOwn(): string | undefined {
  try {
    return chromium.executablePath();
  } catch {
    return undefined;
  }
}
