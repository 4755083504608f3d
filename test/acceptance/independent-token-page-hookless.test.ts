/**
 * The independent token page (test/acceptance/independent-token-page.test.ts) without the hook
 * (TACK_USER_EMAIL, TACK_USER_PASSWORD, a token file), where tack generates its own tokens through
 * the page; and a page whose controls no default locator finds, driven through TACK_UI_SELECTORS.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { browserLimitMs } from '../helpers/browser-time.js';
import { runAgainstReference } from '../helpers/reference-run.js';
import { browser, notPassed, targetsOfThisFile } from './independent-token-page.js';
import { OWN_TOKEN_RULES, TOKEN_PAGE_RULES } from './fault-matrix-token-page.js';

const target = targetsOfThisFile();

describe.skipIf(!browser.found)('an independent token page, in Chromium, without the hook', () => {
  it(
    'passes them without the hook too, and tokens tack generates through its page serve revoke, client id and rotation',
    async () => {
      const t = await target();
      const tokenFile = join(mkdtempSync(join(tmpdir(), 'tack-independent-')), 'api-token');
      writeFileSync(tokenFile, `${t.issueToken()}\n`, { mode: 0o600 });
      const result = await runAgainstReference({ env: t.hooklessEnv(tokenFile), only: [...TOKEN_PAGE_RULES, ...OWN_TOKEN_RULES] });
      // The one deliberate wrong password at re-authentication checks that half of TOKEN-PAGE-REAUTH without the hook.
      expect(notPassed(result)).toEqual([expect.stringMatching(/^TOKEN-PAGE-FEATURE-OFF: skipped: needs the test hook/)]);
      // Only the token file's chain is alive: every token generated through the page was revoked.
      expect(t.liveApiTokens()).toEqual([readFileSync(tokenFile, 'utf8').trim()]);
      expect(result.tokens).toMatchObject({ leftAlive: 0, alive: [] });
    },
    browserLimitMs(),
  );
});

describe.skipIf(!browser.found)('a token page whose controls have other names', () => {
  it(
    'is driven through TACK_UI_SELECTORS, and cannot be without it',
    async () => {
      const t = await target(['own-labels']);
      const only = ['TOKEN-PAGE-REAUTH', 'TOKEN-PAGE-COPY', 'TOKEN-PAGE-OWNER'];
      const without = await runAgainstReference({ env: t.hookEnv, only });
      expect(without.rules.map((r) => r.status)).toEqual(['error', 'error', 'error']);
      expect(without.rules[0]!.reason).toMatch(/no sign-in button on .*TACK_UI_SELECTORS can name it/);
      const file = join(mkdtempSync(join(tmpdir(), 'tack-selectors-')), 'selectors.json');
      writeFileSync(file, JSON.stringify({ generate: 'role=button[name="New personal key"]', submit: 'button[value=go]', copy: '#copy' }));
      const withSelectors = await runAgainstReference({ env: { ...t.hookEnv, TACK_UI_SELECTORS: file }, only });
      expect(notPassed(withSelectors)).toEqual([]);
    },
    browserLimitMs(2),
  );
});
