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
import { type FixtureOption, type SeenFault, startTokenPageTarget, type TokenPageTarget } from '../subjects/token-page-target/index.js';
import { browserLimitMs } from '../helpers/browser-time.js';
import { runAgainstReference } from '../helpers/reference-run.js';
import { OWN_TOKEN_RULES, TOKEN_PAGE_RULES } from './fault-matrix-token-page.js';

const browser = findBrowser(process.env['TACK_BROWSER']);
if (!browser.found) console.warn(`test/acceptance: the independent token page is not judged: ${browser.reason}`);

const SEEN_FAULTS: readonly SeenFault[] = [
  'token-in-text-box',
  'token-on-canvas',
  'token-in-generated-content',
  'token-rows',
  'back-after-reload',
  'dash-before-end',
  'copy-failure-always',
  'title-after-clear',
  'ignores-feature',
  'embedded-gets-token',
  'token-date-rows',
];

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

/** The rules of who may generate that a browser also checks on the page (suites/sign-in/page-path.ts). */
const PAGE_PATH_RULES = ['SIGNIN-FEATURE-GATE', 'SIGNIN-DIRECT-ONLY'];

describe.skipIf(!browser.found)('an independent token page, in Chromium', () => {
  it(
    'passes every token-page rule with the hook, its token masked in a password field, its Copy falling back to execCommand, copy helpers nobody sees',
    async () => {
      // Conformant designs a person meets: an <input type=password> as the mask (no text to read), a
      // Copy that falls back to document.execCommand('copy') when the clipboard refuses (blocked too),
      // and copy helpers no person sees (off the page, clipped, transparent, of size 0) holding the full
      // token while shown, once cleared and after a reload: observed, never failed (issue 27).
      const t = await target(['masked-input', 'copy-fallback', 'hidden-copy-helpers']);
      const result = await runAgainstReference({ env: t.hookEnv, only: [...TOKEN_PAGE_RULES, ...PAGE_PATH_RULES] });
      expect(notPassed(result)).toEqual([]);
      const observed = (rule: string) => result.rules.find((r) => r.id === rule)!.observations.filter((o) => o.includes('where a person does not see it'));
      expect(['TOKEN-PAGE-MASKED', 'TOKEN-PAGE-CLEARED', 'TOKEN-PAGE-SHOWN-ONCE'].map((rule) => [rule, observed(rule).length])).toEqual([
        ['TOKEN-PAGE-MASKED', 1],
        ['TOKEN-PAGE-CLEARED', 1],
        ['TOKEN-PAGE-SHOWN-ONCE', 1],
      ]);
      expect(t.liveApiTokens()).toEqual([]); // every token generated, through the page or the hook, revoked
    },
    browserLimitMs(),
  );

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

  it(
    'fails exactly the rules the faults of its page and sign-in server break',
    async () => {
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
    },
    browserLimitMs(),
  );

  it(
    'judges what a person sees, not the page text alone, and the page path of who may generate; a hook without businesses proves no owner',
    async () => {
      // One run, each fault on a rule of its own (MASKED's three sources each named in its finding);
      // the hook lists no businesses or access, so the web user reads nothing.
      const t = await target([...SEEN_FAULTS, 'reduced-hook']);
      const result = await runAgainstReference({ env: t.hookEnv, only: [...TOKEN_PAGE_RULES, ...PAGE_PATH_RULES] });
      expect(notPassed(result).map((line) => line.split(':').slice(0, 2).join(':'))).toEqual([
        'SIGNIN-FEATURE-GATE: failed', // ignores-feature: the hook refuses, the page hands out a token
        'SIGNIN-DIRECT-ONLY: failed', // embedded-gets-token: the same for an embedded-app user
        'TOKEN-PAGE-OWNER: skipped', // reduced-hook: two empty lists prove nothing
        'TOKEN-PAGE-SHOWN-ONCE: failed', // back-after-reload: half a second after the reload
        'TOKEN-PAGE-MASKED: failed', // token-in-text-box, token-on-canvas, token-in-generated-content
        'TOKEN-PAGE-COUNTDOWN: failed', // dash-before-end: "—" in the token's place at 1:58
        'TOKEN-PAGE-CLEARED: failed', // title-after-clear
        'TOKEN-PAGE-COPY: failed', // copy-failure-always
        'TOKEN-PAGE-FEATURE-OFF: failed', // ignores-feature
        'TOKEN-PAGE-NO-LIST: failed', // token-rows: <div> rows naming the live token; token-date-rows: rows of dates
      ]);
      const failedCheck = (rule: string) => result.rules.find((r) => r.id === rule)!.checks.find((c) => !c.ok)!;
      expect(failedCheck('TOKEN-PAGE-MASKED').actual).toBe('the full token is shown in a form field, generated content, a canvas');
      expect(failedCheck('TOKEN-PAGE-SHOWN-ONCE').actual).toBe('shown again: the masked token is still in the text');
      expect(failedCheck('TOKEN-PAGE-CLEARED').actual).toBe('the full token is in the title');
      expect(failedCheck('TOKEN-PAGE-COUNTDOWN').title).toBe('the token 1 min 58 s after it appeared');
      expect(failedCheck('TOKEN-PAGE-NO-LIST').actual).toMatch(/^div naming the live token by its last 4 characters: "Token …… · created today"/);
      // token-date-rows: rows that say when each token was made, no character of it (issue 27).
      expect(failedCheck('TOKEN-PAGE-NO-LIST').actual).toMatch(/; div showing when a token was made or used: "created \d{4}-\d\d-\d\d, last used never"/);
      expect(failedCheck('TOKEN-PAGE-COPY').title).toBe('the page after a Copy that worked');
      expect(result.rules.find((r) => r.id === 'TOKEN-PAGE-OWNER')!.reason).toMatch(/reads no business .*cannot tell that user's token from another's/);
      // What a person sees, a canvas included, decides whether a screenshot is kept: none of a page showing the token.
      expect(failedCheck('TOKEN-PAGE-MASKED').screenshot).toMatchObject({ withheld: expect.stringMatching(/^no screenshot kept/) });
      expect(failedCheck('TOKEN-PAGE-MASKED').screenshot?.png).toBeUndefined();
      expect(t.liveApiTokens()).toEqual([]); // the tokens the faulty page path handed out, revoked too
    },
    browserLimitMs(),
  );
});

describe.skipIf(!browser.found)('a token page that shows the token inside a web component or a frame', () => {
  it(
    'fails TOKEN-PAGE-MASKED, and keeps no screenshot of another rule failing while the token is shown there',
    async () => {
      // Issue 27: a closed shadow root and a frame of another origin, each showing the full token beside the
      // masked one; the countdown starts at 1:30, so COUNTDOWN fails while the token is on screen.
      const t = await target(['token-in-shadow-root', 'token-in-frame', 'countdown-from-1-30']);
      const result = await runAgainstReference({ env: t.hookEnv, only: ['TOKEN-PAGE-MASKED', 'TOKEN-PAGE-COUNTDOWN'] });
      expect(notPassed(result).map((line) => line.split(':').slice(0, 2).join(':'))).toEqual(['TOKEN-PAGE-MASKED: failed', 'TOKEN-PAGE-COUNTDOWN: failed']);
      const failed = (rule: string) => result.rules.find((r) => r.id === rule)!.checks.filter((c) => !c.ok);
      expect(failed('TOKEN-PAGE-MASKED').map((c) => c.actual)).toEqual(['the full token is shown in the text, the text in a frame']);
      const whileShown = failed('TOKEN-PAGE-COUNTDOWN').filter((c) => c.title === 'the countdown when the token appears');
      expect(whileShown).toHaveLength(1);
      for (const check of [...failed('TOKEN-PAGE-MASKED'), ...whileShown]) {
        expect({ check: check.title, png: check.screenshot?.png, withheld: check.screenshot?.withheld }).toEqual({
          check: check.title,
          png: undefined,
          withheld: expect.stringMatching(/^no screenshot kept: the page showed a secret/),
        });
      }
    },
    browserLimitMs(),
  );
});

describe.skipIf(!browser.found)('a token page that redeems its code on its server', () => {
  it(
    'is judged on TOKEN-PAGE-NO-TOKEN by removing offline_access from its authorization request, and fails where that changes nothing',
    async () => {
      const conformant = await target(['server-side']);
      expect(notPassed(await runAgainstReference({ env: conformant.hookEnv, only: ['TOKEN-PAGE-NO-TOKEN', 'TOKEN-PAGE-COPY'] }))).toEqual([]);
      const faulty = await target(['server-side', 'offline-access-ignored']);
      const result = await runAgainstReference({ env: faulty.hookEnv, only: ['TOKEN-PAGE-NO-TOKEN'] });
      expect(notPassed(result)).toEqual([expect.stringMatching(/^TOKEN-PAGE-NO-TOKEN: failed: .*offline_access removed from the authorization request/)]);
    },
    browserLimitMs(2),
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
