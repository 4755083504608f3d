/**
 * The modes users run, against an implementation whose open choices differ from the reference's
 * (tenant names, header names, client id, realm path, snake_case partner fields, 1-based paging
 * under other parameter names): nothing fails or errs in any mode, no API token tack generated is
 * left alive (hookless: a complete run with a password and the browser, whose tokens come from the
 * token page), and no sign-in is refused. When the paging parameters are
 * not told (TACK_PAGE_*_PARAM), what depends on reading every page is reported not checked, never
 * failed and never passed.
 */
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/runner/index.js';
import type { ReferenceOptions, ReferenceServer } from '../../src/reference/index.js';
import { MODES, type Mode, NO_BROWSER, targetFor } from '../helpers/modes.js';
import { runAgainstReference } from '../helpers/reference-run.js';
import { browserLimitMs } from '../helpers/browser-time.js';
import { hasChromium, OWN_TOKEN_RULES, TOKEN_PAGE_RULES } from './fault-matrix-token-page.js';

const DIALECT: ReferenceOptions = {
  tenants: ['initech', 'umbrella-corp'],
  partnerHeaders: ['X-Partner-Client', 'x-partner-KEY'],
  clientId: 'payroll-desktop',
  realmPath: '/auth/realms/payroll-uat',
  dialect: { partnerFields: 'snake', pageBase: 1, pageParams: { index: 'page', size: 'per_page' } },
};
const PAGING = { TACK_PAGE_INDEX_PARAM: 'page', TACK_PAGE_SIZE_PARAM: 'per_page' };
/**
 * The token page in another dialect (other tenant and realm names) is checked in the hookless run:
 * its rules, and the tokens tack generates through the page, each passed (dialects.test.ts, in the
 * same dialect with the hook, leaves the browser out and counts on this run for the page). The page
 * is the same with the hook (only who creates the user differs), and the tolerances and the paging
 * parameters do not reach it, so the other runs leave the browser out (its rules are then skipped).
 * A browser run costs seconds.
 */
const WITHOUT_BROWSER = { TACK_BROWSER: NO_BROWSER };

async function run(mode: Mode, extra: Record<string, string>, inspect?: (server: ReferenceServer, result: RunResult) => void): Promise<RunResult> {
  const { server, env } = await targetFor(mode, [], DIALECT, extra);
  try {
    const chains = server.liveApiTokenChains(server.userEmail);
    const result = await runAgainstReference({ env, runs: 4 });
    // Whatever the mode, the run leaves alive no API token it generated, and signs in wrongly as the
    // user of TACK_USER_EMAIL only once, on purpose: the one wrong password at re-authentication of a
    // run with the browser (TOKEN-PAGE-REAUTH; TACK_NO_WRONG_PASSWORD turns it off).
    expect(result.tokens?.leftAlive).toBe(0);
    expect(server.liveApiTokenChains(server.userEmail)).toEqual(chains);
    expect(server.failedSignIns(server.userEmail)).toBe(mode === 'hookless' && extra['TACK_BROWSER'] === undefined ? 1 : 0);
    inspect?.(server, result);
    return result;
  } finally {
    await server.close();
  }
}

const notFine = (result: RunResult) =>
  result.rules.filter((r) => r.status === 'failed' || r.status === 'error' || r.status === 'warning').map((r) => `${r.id}: ${r.status}: ${r.reason}`);

describe('another dialect, in every mode', () => {
  it.each(MODES)(
    '%s: nothing fails or errs, and no token tack generated is left alive',
    async (mode) => {
      const hookless = mode === 'hookless';
      const result = await run(mode, hookless ? PAGING : { ...PAGING, ...WITHOUT_BROWSER }, (server) => {
        // Hook users' tokens are revoked too; hookless, the page's (the token file's chain is the user's, kept).
        if (!hookless) expect(server.liveApiTokens()).toBe(0);
      });
      expect(notFine(result)).toEqual([]);
      if (hookless || mode === 'hook' || mode === 'max-tolerance') expect(result.tokens?.generated).toBeGreaterThan(0);
      // The token page in this dialect, and the tokens tack generates through it, are judged here (not in dialects.test.ts):
      // every such rule passed, but the feature switch, which needs the hook.
      const onThePage = new Set<string>([...TOKEN_PAGE_RULES, ...OWN_TOKEN_RULES]);
      if (hookless && hasChromium) {
        expect(result.rules.filter((r) => onThePage.has(r.id) && r.status !== 'passed').map((r) => `${r.id}: ${r.status}: ${r.reason}`)).toEqual([
          expect.stringMatching(/^TOKEN-PAGE-FEATURE-OFF: skipped: needs the test hook/),
        ]);
      }
    },
    browserLimitMs(),
  );

  it('paging parameters not told: the rules that read every page are not checked, and none fails', async () => {
    const result = await run('hook', WITHOUT_BROWSER);
    expect(notFine(result)).toEqual([]);
    const skipped = result.rules.filter((r) => r.status === 'skipped' && r.area !== 'token-page');
    expect(skipped.map((r) => r.id)).toContain('SEARCH-ONLY-READABLE');
    for (const rule of skipped) expect(rule.reason).toMatch(/TACK_PAGE_INDEX_PARAM|pageSize/);
  });
});
