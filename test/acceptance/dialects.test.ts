/**
 * tack relies on nothing the spec does not state. Here the reference server answers every
 * "not shown" question differently from its defaults (other tenant names, header names, client id
 * and realm path, snake_case partner token fields, 1-based paging), tack is pointed at it by an env
 * file only, and every rule still passes; with a fault, the right rule still fails.
 *
 * These runs leave the browser out (its rules are skipped, saying why). The token page in this
 * dialect (the same tenant names, realm path and client id) is judged in Chromium by the hookless
 * run of dialect-modes.test.ts: every page rule but the feature switch, and the tokens tack generates
 * through the page. The page is the same with the hook (only who creates the user differs); the
 * feature switch, which needs the hook, is judged on the reference's names by conformance.test.ts.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceOptions, type ReferenceServer } from '../../src/reference/index.js';
import { getRule } from '../../src/rules/catalog.js';
import { runAgainstReference, statusOf } from '../helpers/reference-run.js';
import { NO_BROWSER, targetFor } from '../helpers/modes.js';

const servers: ReferenceServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function otherDialect(faults: string[] = []): Promise<{ server: ReferenceServer; envFile: string }> {
  const server = await startReferenceServer({
    faults,
    tenants: ['initech', 'umbrella-corp'],
    partnerHeaders: ['X-Partner-Client', 'x-partner-KEY'],
    clientId: 'payroll-desktop',
    realmPath: '/auth/realms/payroll-uat',
    dialect: { partnerFields: 'snake', pageBase: 1 },
  });
  servers.push(server);
  const envFile = join(mkdtempSync(join(tmpdir(), 'tack-dialect-')), 'target.env');
  writeFileSync(
    envFile,
    `${Object.entries({ ...server.env, TACK_BROWSER: NO_BROWSER })
      .map(([k, v]) => `${k}=${v}`)
      .join('\n')}\n`,
    { mode: 0o600 },
  );
  return { server, envFile };
}

describe('an implementation whose open choices differ from the reference defaults', () => {
  it('passes every rule', async () => {
    const { server, envFile } = await otherDialect();
    expect(server.env.TACK_BASE_URL).toMatch(/^http:\/\/initech\.localhost:/);
    const result = await runAgainstReference({ envFile, runs: 6 });
    // The token page's rules are skipped, saying why (dialect-modes.test.ts judges that page in this dialect, in Chromium).
    const noBrowser = (r: { id: string; status: string; reason: string }) =>
      getRule(r.id)?.area === 'token-page' && r.status === 'skipped' && r.reason.includes('needs a browser');
    expect(result.rules.filter((r) => r.status !== 'passed' && !noBrowser(r)).map((r) => `${r.id}: ${r.status}: ${r.reason}`)).toEqual([]);
    expect(result.fieldsUsed['partner access token']).toBe('access_token');
  });

  it.each([
    ['partner-refresh-cross-tenant', 'PARTNER-REFRESH-CROSS-TENANT'],
    ['absolute-limit-sliding', 'SIGNIN-ABSOLUTE-EXPIRY'],
    ['search-lists-unreadable', 'SEARCH-ONLY-READABLE'],
  ])('still fails the right rule under %s', async (fault, rule) => {
    const { envFile } = await otherDialect([fault]);
    const result = await runAgainstReference({ envFile, only: [rule] });
    expect(statusOf(result, rule)).toBe('failed');
  });
});

/**
 * Paging tack could not walk once passed SEARCH-SHAPE ("2 items on 1 page(s)", totalCount 3).
 * A target whose paging parameters are named otherwise and whose pages hold 2 items unless told:
 * without TACK_PAGE_*_PARAM the walk stops at page 1, and SEARCH-SHAPE is skipped naming the
 * variables; with them it is walked and passes.
 */
describe('paging under other parameter names, with a default page smaller than the matches', () => {
  const SMALL_PAGES: ReferenceOptions = { dialect: { pageParams: { index: 'page', size: 'per_page' }, defaultPageSize: 2 } };

  it.each([
    ['without TACK_PAGE_*_PARAM: skipped, naming the variables', {}, 'skipped'],
    ['with them: passed', { TACK_PAGE_INDEX_PARAM: 'page', TACK_PAGE_SIZE_PARAM: 'per_page' }, 'passed'],
  ] as const)('SEARCH-SHAPE %s', async (_, paging, status) => {
    const { server, env } = await targetFor('partner-only', [], SMALL_PAGES, { ...paging, TACK_BROWSER: NO_BROWSER });
    servers.push(server);
    const result = await runAgainstReference({ env, only: ['SEARCH-SHAPE'] });
    const rule = result.rules.find((r) => r.id === 'SEARCH-SHAPE')!;
    expect([rule.status, rule.reason]).toEqual([status, expect.any(String)]);
    if (status === 'skipped') expect(rule.reason).toMatch(/TACK_PAGE_INDEX_PARAM/);
  });
});
