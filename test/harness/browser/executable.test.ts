/** findBrowser: TACK_BROWSER is taken as given (or refused with how to install one); otherwise a browser on the PATH is found by name. */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findBrowser, INSTALL_HINT } from '../../../src/harness/browser/executable.js';

const dir = mkdtempSync(join(tmpdir(), 'tack-browser-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('findBrowser', () => {
  it('takes TACK_BROWSER when it exists', () => {
    const path = join(dir, 'my-chrome');
    writeFileSync(path, '');
    expect(findBrowser(path)).toEqual({ found: true, path, how: 'TACK_BROWSER' });
  });

  it('refuses a TACK_BROWSER that does not exist, with how to install one, without looking elsewhere', () => {
    const found = findBrowser(join(dir, 'nope'), { PATH: '/usr/bin' });
    expect(found.found).toBe(false);
    expect(!found.found && found.reason).toBe(`TACK_BROWSER=${join(dir, 'nope')} does not exist; ${INSTALL_HINT}`);
  });

  it('finds a chromium on the PATH when nothing else is configured', () => {
    const bin = join(dir, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'chromium'), '');
    chmodSync(join(bin, 'chromium'), 0o755);
    const found = findBrowser(undefined, { PATH: bin }, 'linux');
    // Playwright's own Chromium, when installed, comes first.
    if (found.found && found.how !== "Playwright's own Chromium")
      expect(found).toEqual({ found: true, path: join(bin, 'chromium'), how: 'chromium on the PATH' });
    expect(found.found).toBe(true);
  });
});
