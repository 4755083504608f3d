/**
 * tack's browser checks judged against an independent implementation of the token page
 * (test/subjects/token-page-target: its own sign-in server, markup, script and hook; not the
 * reference server), over real HTTP on loopback in real Chromium: it passes every token-page rule
 * with the hook, and without it (TACK_USER_EMAIL, TACK_USER_PASSWORD, a token file), where tack also
 * generates its own tokens through that page for the rules judged on tokens it owns; with a
 * deliberate fault in its page, exactly the rule that fault breaks fails. A page whose controls no
 * default locator finds is driven through TACK_UI_SELECTORS.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findBrowser } from '../../src/harness/browser/executable.js';
import type { RunResult } from '../../src/runner/index.js';
import { startTokenPageTarget, type FixtureOption, type TokenPageTarget } from '../subjects/token-page-target/index.js';
import { runAgainstReference } from '../helpers/reference-run.js';
import { OWN_TOKEN_RULES, TOKEN_PAGE_RULES } from './fault-matrix-token-page.js';

const browser = findBrowser(process.env['TACK_BROWSER']);
if (!browser.found) console.warn(`test/acceptance: the independent token page is not judged: ${browser.reason}`);

const targets: TokenPageTarget[] = [];
afterEach(async () => {
  await Promise.all(targets.splice(0).map((t) => t.close()));
});

async function target(faults: FixtureOption[] = []): Promise<TokenPageTarget> {
  const t = await startTokenPageTarget(faults);
  targets.push(t);
  return t;
}

function notPassed(result: RunResult): string[] {
  return result.rules.filter((r) => r.status !== 'passed').map((r) => `${r.id}: ${r.status}: ${r.reason}`);
}

describe.skipIf(!browser.found)('an independent token page, in Chromium', () => {
  it('passes every token-page rule with the hook', async () => {
    const t = await target();
    expect(notPassed(await runAgainstReference({ env: t.hookEnv, only: TOKEN_PAGE_RULES }))).toEqual([]);
    expect(t.liveApiTokens()).toEqual([]); // every token generated, through the page or the hook, revoked
  });

  it('passes them without the hook too, and tokens tack generates through its page serve revoke, client id and rotation', async () => {
    const t = await target();
    const tokenFile = join(mkdtempSync(join(tmpdir(), 'tack-independent-')), 'api-token');
    writeFileSync(tokenFile, `${t.issueToken()}\n`, { mode: 0o600 });
    const result = await runAgainstReference({ env: t.hooklessEnv(tokenFile), only: [...TOKEN_PAGE_RULES, ...OWN_TOKEN_RULES] });
    expect(notPassed(result)).toEqual([
      // No wrong password for a real account (it may lock): that part of the re-authentication is not checked.
      expect.stringMatching(/^TOKEN-PAGE-REAUTH: skipped: partly checked .*not checked: a wrong password gets no token/),
      expect.stringMatching(/^TOKEN-PAGE-FEATURE-OFF: skipped: needs the test hook/),
    ]);
    // Only the token file's chain is alive: every token generated through the page was revoked.
    expect(t.liveApiTokens()).toEqual([readFileSync(tokenFile, 'utf8').trim()]);
    expect(result.tokens).toMatchObject({ leftAlive: 0, alive: [] });
  });

  it('fails exactly the rules the faults of its page and sign-in server break', async () => {
    // Faults of different rules, each judged by its own check; the password skipped also makes tack
    // answer the cancelled case's authorization request itself (no sign-in page to leave).
    const t = await target(['no-password-prompt', 'shows-full-token', 'countdown-from-1-30', 'cancel-says-error', 'lists-tokens']);
    const result = await runAgainstReference({ env: t.hookEnv, only: TOKEN_PAGE_RULES });
    expect(notPassed(result).map((line) => line.split(':').slice(0, 2).join(':'))).toEqual([
      'TOKEN-PAGE-REAUTH: failed',
      'TOKEN-PAGE-MASKED: failed',
      'TOKEN-PAGE-COUNTDOWN: failed',
      'TOKEN-PAGE-CANCELLED: failed',
      'TOKEN-PAGE-NO-LIST: failed',
    ]);
  });
});

describe.skipIf(!browser.found)('a token page that redeems its code on its server', () => {
  it('is judged on TOKEN-PAGE-NO-TOKEN by removing offline_access from its authorization request, and fails where that changes nothing', async () => {
    const conformant = await target(['server-side']);
    expect(notPassed(await runAgainstReference({ env: conformant.hookEnv, only: ['TOKEN-PAGE-NO-TOKEN', 'TOKEN-PAGE-COPY'] }))).toEqual([]);
    const faulty = await target(['server-side', 'offline-access-ignored']);
    const result = await runAgainstReference({ env: faulty.hookEnv, only: ['TOKEN-PAGE-NO-TOKEN'] });
    expect(notPassed(result)).toEqual([expect.stringMatching(/^TOKEN-PAGE-NO-TOKEN: failed: .*offline_access removed from the authorization request/)]);
  });
});

describe.skipIf(!browser.found)('a token page whose controls have other names', () => {
  it('is driven through TACK_UI_SELECTORS, and cannot be without it', async () => {
    const t = await target(['own-labels']);
    const only = ['TOKEN-PAGE-REAUTH', 'TOKEN-PAGE-COPY', 'TOKEN-PAGE-OWNER'];
    const without = await runAgainstReference({ env: t.hookEnv, only });
    expect(without.rules.map((r) => r.status)).toEqual(['error', 'error', 'error']);
    expect(without.rules[0]!.reason).toMatch(/no sign-in button on .*TACK_UI_SELECTORS can name it/);
    const file = join(mkdtempSync(join(tmpdir(), 'tack-selectors-')), 'selectors.json');
    writeFileSync(file, JSON.stringify({ generate: 'role=button[name="New personal key"]', submit: 'button[value=go]', copy: '#copy' }));
    const withSelectors = await runAgainstReference({ env: { ...t.hookEnv, TACK_UI_SELECTORS: file }, only });
    expect(notPassed(withSelectors)).toEqual([]);
  });
});
