/**
 * Which Chromium-family browser tack drives (token-page.md): TACK_BROWSER when set (it always wins);
 * else the one Playwright installed for itself; else Chromium, Google Chrome or Microsoft Edge where
 * CI runners and systems put them:
 *
 * - on the PATH: `chromium` (Debian, Alpine), `chromium-browser` (Ubuntu, older Alpine),
 *   `google-chrome` / `google-chrome-stable` (GitHub's Ubuntu runners, Google's packages),
 *   `microsoft-edge` / `microsoft-edge-stable`;
 * - installed outside the PATH: /opt/google/chrome/chrome, /opt/microsoft/msedge/msedge; on macOS the
 *   applications in /Applications (GitHub's macOS runners have Google Chrome there); on Windows
 *   chrome.exe / msedge.exe under Program Files and the user's local programs.
 *
 * Without one, the browser rules are `skipped` with this reason and how to install one, never passed.
 */
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { playwrightChromium } from './playwright.js';

export const INSTALL_HINT =
  'install one (Debian, Ubuntu: `apt-get install -y chromium`; Alpine: `apk add chromium`; macOS: Google Chrome), ' + 'or set TACK_BROWSER=/path/to/chromium';

export type BrowserLookup = { readonly found: true; readonly path: string; readonly how: string } | { readonly found: false; readonly reason: string };

/** Executable names looked up on the PATH, in order: Chromium first (what tack is tested with), then Chrome, then Edge. */
const ON_PATH = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome', 'microsoft-edge', 'microsoft-edge-stable'];

/** Where the browsers are installed outside the PATH, by platform. */
function installed(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string[] {
  if (platform === 'darwin') {
    const apps = ['Google Chrome.app/Contents/MacOS/Google Chrome', 'Chromium.app/Contents/MacOS/Chromium', 'Microsoft Edge.app/Contents/MacOS/Microsoft Edge'];
    return [...apps.map((a) => `/Applications/${a}`), ...(env.HOME ? apps.map((a) => join(env.HOME!, 'Applications', a)) : [])];
  }
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter((r): r is string => r !== undefined);
    return roots.flatMap((r) => [join(r, 'Google', 'Chrome', 'Application', 'chrome.exe'), join(r, 'Microsoft', 'Edge', 'Application', 'msedge.exe')]);
  }
  return ['/opt/google/chrome/chrome', '/opt/microsoft/msedge/msedge'];
}

export function findBrowser(configured: string | undefined, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): BrowserLookup {
  if (configured !== undefined) {
    return existsSync(configured)
      ? { found: true, path: configured, how: 'TACK_BROWSER' }
      : { found: false, reason: `TACK_BROWSER=${configured} does not exist; ${INSTALL_HINT}` };
  }
  const own = playwrightsOwn();
  if (own !== undefined && existsSync(own)) return { found: true, path: own, how: "Playwright's own Chromium" };
  const dirs = (env.PATH ?? '').split(delimiter).filter((d) => d !== '');
  const suffix = platform === 'win32' ? '.exe' : '';
  for (const name of ON_PATH) {
    for (const dir of dirs) {
      const path = join(dir, `${name}${suffix}`);
      if (existsSync(path)) return { found: true, path, how: `${name} on the PATH` };
    }
  }
  for (const path of installed(platform, env)) if (existsSync(path)) return { found: true, path, how: 'installed' };
  return {
    found: false,
    reason: `no Chromium, Chrome or Edge found (TACK_BROWSER unset, none installed by Playwright, none on the PATH or where they install); ${INSTALL_HINT}`,
  };
}

function playwrightsOwn(): string | undefined {
  try {
    return playwrightChromium().executablePath();
  } catch {
    return undefined;
  }
}
