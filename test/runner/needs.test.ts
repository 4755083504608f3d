/**
 * What the browser part of a run needs, and how it is configured: the browser, the user-password
 * and own-token needs (each reason names what to set), TACK_UI_SELECTORS files, TACK_WEB_URL's
 * default, and TACK_USER_PASSWORD registered as a secret from the start.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BrowserLookup } from '../../src/harness/browser/executable.js';
import { findBrowser } from '../../src/harness/browser/executable.js';
import { HookClient, type Capability } from '../../src/harness/clients/hook.js';
import { readUiSelectors, resolveTarget, validateEnv } from '../../src/harness/config.js';
import { isTackError } from '../../src/harness/errors.js';
import type { HttpClient } from '../../src/harness/http.js';
import { type Need, NEEDS, needText } from '../../src/runner/needs.js';
import { planRules, unmetNeeds } from '../../src/runner/selection.js';
import { ALL_TESTS } from '../../suites/index.js';
import { openSession } from '../../src/harness/session.js';

const remote = { TACK_BASE_URL: 'https://acme.uat.example.com', TACK_IDENTITY_URL: 'https://id.uat.example.com/realms/payroll' };
const FOUND: BrowserLookup = { found: true, path: '/usr/bin/chromium', how: "Debian's chromium" };
const MISSING: BrowserLookup = {
  found: false,
  reason: 'no Chromium found; install it with `apt-get install -y chromium`, or set TACK_BROWSER=/path/to/chromium',
};

function hookWith(...capabilities: Capability[]): HookClient {
  const hook = new HookClient(undefined as unknown as HttpClient, 'http://127.0.0.1:1/__tack', 'token');
  hook.capabilities = new Set(capabilities);
  return hook;
}

const target = (env: Record<string, string> = {}) => resolveTarget(validateEnv({ ...remote, ...env }), false);
const user = { TACK_USER_EMAIL: 'alice@acme.example', TACK_USER_PASSWORD: 'pw-0123456789' };

describe('needs of the browser part', () => {
  it('browser: met by a found executable; otherwise the reason with the install command', () => {
    expect(unmetNeeds(['browser'], target(), undefined, undefined, FOUND)).toEqual([]);
    expect(unmetNeeds(['browser'], target(), undefined, undefined, MISSING)).toEqual([`needs a browser: ${MISSING.reason}`]);
    const reason = expect.stringContaining('TACK_BROWSER=/nonexistent/chromium does not exist; install one (Debian, Ubuntu: `apt-get install -y chromium`');
    expect(findBrowser('/nonexistent/chromium')).toEqual({ found: false, reason });
  });

  it('finds Chromium, Chrome or Edge on the PATH (GitHub runners, Debian, Ubuntu, Alpine), Chromium first; TACK_BROWSER wins', () => {
    const bin = (names: string[]) => {
      const dir = mkdtempSync(join(tmpdir(), 'tack-browsers-'));
      for (const name of names) writeFileSync(join(dir, name), '#!/bin/sh\n', { mode: 0o755 });
      return dir;
    };
    const runner = bin(['google-chrome', 'microsoft-edge']);
    const debian = bin(['chromium']);
    const noPlaywright = !findBrowser(undefined, { PATH: '' }, 'linux').found;
    if (noPlaywright) {
      // Playwright's own browser, when installed, comes before the PATH.
      expect(findBrowser(undefined, { PATH: runner }, 'linux')).toEqual({ found: true, path: join(runner, 'google-chrome'), how: 'google-chrome on the PATH' });
      expect(findBrowser(undefined, { PATH: `${runner}:${debian}` }, 'linux')).toMatchObject({ path: join(debian, 'chromium') });
      expect(findBrowser(undefined, { PATH: join(runner, 'nothing-here') }, 'linux')).toMatchObject({
        found: false,
        reason: expect.stringMatching(/no Chromium, Chrome or Edge found .*`apt-get install -y chromium`.*TACK_BROWSER/),
      });
    }
    expect(findBrowser(join(debian, 'chromium'), { PATH: runner })).toMatchObject({ path: join(debian, 'chromium'), how: 'TACK_BROWSER' });
  });

  it('user-password: met by the hook with users and passwords, or TACK_USER_EMAIL with TACK_USER_PASSWORD', () => {
    expect(unmetNeeds(['user-password'], target(), hookWith('users', 'passwords'), undefined, FOUND)).toEqual([]);
    expect(unmetNeeds(['user-password'], target(user), undefined, undefined, FOUND)).toEqual([]);
    const reason = [
      'needs a user tack can sign in with at the web pages: the test hook with the users and passwords capabilities, ' +
        'or TACK_USER_EMAIL with TACK_USER_PASSWORD',
    ];
    expect(unmetNeeds(['user-password'], target(), hookWith('users', 'api-tokens'), undefined, FOUND)).toEqual(reason);
    expect(unmetNeeds(['user-password'], target({ TACK_USER_EMAIL: 'alice@acme.example' }), undefined, undefined, FOUND)).toEqual(reason);
  });

  it('wrong-password: a user tack created, or TACK_USER_EMAIL unless TACK_NO_WRONG_PASSWORD; then REAUTH is partly checked', () => {
    expect(unmetNeeds(['wrong-password'], target(), hookWith('users', 'passwords'), undefined, FOUND)).toEqual([]);
    expect(unmetNeeds(['wrong-password'], target(user), undefined, undefined, FOUND)).toEqual([]);
    const off = target({ ...user, TACK_NO_WRONG_PASSWORD: '1' });
    expect(unmetNeeds(['wrong-password'], off, undefined, undefined, FOUND)).toEqual([
      'TACK_NO_WRONG_PASSWORD is set: no wrong password is typed for TACK_USER_EMAIL',
    ]);
    expect(unmetNeeds(['wrong-password'], off, hookWith('users', 'passwords'), undefined, FOUND)).toEqual([]);
    expect(target({ ...user, TACK_NO_WRONG_PASSWORD: '0' }).noWrongPassword).toBe(false);
    expect(() => target({ ...user, TACK_NO_WRONG_PASSWORD: 'yes' })).toThrow(/TACK_NO_WRONG_PASSWORD must be 1/);
    // The part is not seen, so the rule is skipped saying why: never passed on half the evidence.
    const reauth = (t: ReturnType<typeof target>) => planRules(ALL_TESTS, ['TOKEN-PAGE-REAUTH'], t, undefined, undefined, FOUND)[0]!;
    expect(reauth(target(user)).skipReasons).toEqual([]);
    expect(reauth(off).skipReasons).toEqual([
      'partly checked: not checked: a wrong password gets no token (typed once per run, at re-authentication): ' +
        'TACK_NO_WRONG_PASSWORD is set: no wrong password is typed for TACK_USER_EMAIL',
    ]);
  });

  it('own-token: the hook with users and api-tokens, or the token page (a browser and a user)', () => {
    expect(unmetNeeds(['own-token'], target(), hookWith('users', 'api-tokens'), undefined, MISSING)).toEqual([]);
    expect(unmetNeeds(['own-token'], target(user), undefined, undefined, FOUND)).toEqual([]);
    expect(unmetNeeds(['own-token'], target(user), undefined, undefined, MISSING)[0]).toContain(`which needs a browser (${MISSING.reason})`);
    const noUser = /API tokens tack owns: the test hook .* or tokens generated through the token page, which needs TACK_USER_EMAIL with TACK_USER_PASSWORD$/;
    expect(unmetNeeds(['own-token'], target(), undefined, undefined, FOUND)[0]).toMatch(noUser);
  });
});

describe('configuration of the browser part', () => {
  it('TACK_WEB_URL defaults to TACK_BASE_URL; the password and the selectors are read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tack-selectors-'));
    const file = join(dir, 'ui.json');
    writeFileSync(file, JSON.stringify({ submit: 'role=button[name=/log in/i]', token: '[data-qa=token]' }));
    const t = target({ ...user, TACK_UI_SELECTORS: file, TACK_BROWSER: '/opt/chromium' });
    expect(t.webUrl).toBe(remote.TACK_BASE_URL);
    expect(t.userPassword).toBe('pw-0123456789');
    expect(t.uiSelectors).toEqual({ submit: 'role=button[name=/log in/i]', token: '[data-qa=token]' });
    expect(t.browser).toBe('/opt/chromium');
    expect(target({ TACK_WEB_URL: 'https://portal.uat.example.com' }).webUrl).toBe('https://portal.uat.example.com');
  });

  it.each([
    [{ sumbit: '#go' }, 'unknown key "sumbit"'],
    [{ submit: '' }, '"submit" must be a non-empty Playwright selector string'],
    [{ copy: 3 }, '"copy" must be a non-empty Playwright selector string'],
    [['#go'], 'TACK_UI_SELECTORS must name a JSON file like'],
  ])('a selector file %j is refused, naming the key', (content, message) => {
    const file = join(mkdtempSync(join(tmpdir(), 'tack-selectors-')), 'ui.json');
    writeFileSync(file, JSON.stringify(content));
    let error: unknown;
    try {
      readUiSelectors(file);
    } catch (e) {
      error = e;
    }
    expect(isTackError(error, 'TACK_ERR_CONFIG')).toBe(true);
    expect((error as Error).message).toContain(message);
  });

  it('a missing selector file is named', () => {
    expect(() => readUiSelectors('/nonexistent/ui.json')).toThrow(/TACK_UI_SELECTORS: \/nonexistent\/ui.json could not be read \(ENOENT\)/);
  });

  it('TACK_USER_PASSWORD is a secret from the start: the redactor replaces it everywhere', async () => {
    const session = await openSession({ env: { ...remote, ...user } });
    try {
      expect(session.redactor.redact('typed pw-0123456789 into the form')).toBe('typed <password#1> into the form');
    } finally {
      await session.close();
    }
  });
});

describe('the needs table', () => {
  it('every need has its meaning and the words tack rules prints; a hook need says its capability', () => {
    for (const [name, entry] of Object.entries(NEEDS)) {
      expect(entry.meaning, name).not.toBe('');
      expect(needText(name as Need), name).toBe(entry.asks);
    }
    expect(needText('hook:clock')).toBe('hook capability clock (TACK_HOOK_URL, TACK_HOOK_TOKEN)');
  });

  it('an unknown need is no hook capability: it is a bug, said as one', () => {
    expect(() => unmetNeeds(['hook:time-machine' as Need], target(), hookWith('clock'), undefined, FOUND)).toThrow(/unknown need "hook:time-machine"/);
    expect(() => needText('reader-tokens' as Need)).toThrow(/unknown need "reader-tokens"/);
  });

  it("a hook need is met by the hook's capability, else says what is missing", () => {
    expect(unmetNeeds(['hook:clock'], target(), hookWith('clock'), undefined, FOUND)).toEqual([]);
    expect(unmetNeeds(['hook:clock'], target(), undefined, undefined, FOUND)).toEqual([
      'needs the test hook (TACK_HOOK_URL, TACK_HOOK_TOKEN) with the clock capability',
    ]);
  });
});
