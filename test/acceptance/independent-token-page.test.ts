/**
 * tack's browser checks judged against an independent implementation of the token page
 * (test/subjects/token-page-target: its own sign-in server, markup, script and hook; not the
 * reference server), over real HTTP on loopback in real Chromium: it passes every token-page rule
 * with the hook, and without it (TACK_USER_EMAIL, TACK_USER_PASSWORD, a token file), where tack also
 * generates its own tokens through that page for the rules judged on tokens it owns; with a
 * deliberate fault in its page, exactly the rule that fault breaks fails. A page whose controls no
 * default locator finds is driven through TACK_UI_SELECTORS.
 *
 * The tests are in three files that three workers run side by side (test/acceptance/independent-token-page.ts):
 * here, with the hook, the conformant page and the faults of its page and sign-in server; without the hook
 * and with other control names in independent-token-page-hookless.test.ts; what a person sees, and pages
 * built otherwise, in independent-token-page-seen.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { browserLimitMs } from '../helpers/browser-time.js';
import { runAgainstReference } from '../helpers/reference-run.js';
import { browser, notPassed, PAGE_PATH_RULES, targetsOfThisFile } from './independent-token-page.js';
import { TOKEN_PAGE_RULES } from './fault-matrix-token-page.js';

const target = targetsOfThisFile();

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
});
