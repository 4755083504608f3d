/**
 * report.html in a real browser: Debian's Chromium, headless, driven by playwright-core (it cannot
 * download a browser here). A run against a reference fault; the page loads nothing but itself,
 * the status filter leaves only the failed rule, its exchanges and curl command are visible, and
 * the curl command, pasted into bash with the secret in a variable, gets the answer that failed.
 * A screenshot goes to reports/browser/ (git-ignored).
 */
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess, startTarget, type InProcessRun, type Target } from './helpers.js';
import { LAUNCH_ARGS } from '../../src/harness/browser/browser-host.js';
import { BROWSER, noBrowserWords } from '../helpers/browser.js';

const hasChromium = BROWSER.found;
const RULE = 'PARTNER-SECRET-EXACT';

if (!BROWSER.found) console.warn(`test/reporters/html-browser: the browser test of report.html is skipped: ${BROWSER.reason}`);

describe.skipIf(!hasChromium)(`report.html in headless Chromium${noBrowserWords()}`, () => {
  let target: Target;
  let run: InProcessRun;
  let browser: Browser;

  beforeAll(async () => {
    target = await startTarget(['partner-secret-prefix-match']);
    run = await runInProcess(target.env, { only: [RULE, 'PARTNER-HEADERS-REQUIRED', 'PARTNER-BAD-CREDENTIALS', 'SIGNIN-GARBAGE-REJECTED'], seed: 1 });
    browser = await chromium.launch({
      executablePath: BROWSER.found ? BROWSER.path : '',
      args: LAUNCH_ARGS,
    });
  });

  afterAll(async () => {
    await browser?.close();
    await target?.server.close();
  });

  it('filters by status and shows the failed rule with its exchanges, curl and replay', async () => {
    expect(run.code).toBe(1);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    const url = pathToFileURL(resolve(run.runDir, 'report.html')).href;
    await page.goto(url);

    expect(await page.locator('#verdict h1').innerText()).toContain('FAILED');
    const rows = page.locator('#rules tbody tr');
    expect(await rows.count()).toBe(4);
    expect(await page.locator('#rules tbody tr:visible').count()).toBe(4);

    await page.click('button[data-filter-status="failed"]');
    const visible = page.locator('#rules tbody tr:visible');
    expect(await visible.count()).toBe(1);
    expect(await visible.first().getAttribute('data-rule')).toBe(RULE);
    expect(await page.locator('#shown').innerText()).toBe('1 of 4 rules shown');

    const detail = page.locator(`#rule-${RULE}`);
    expect(await detail.isVisible()).toBe(true);
    const judged = detail.locator('details.exchange.judged');
    expect(await judged.getAttribute('open')).not.toBeNull();
    const exchangeText = await judged.innerText();
    expect(exchangeText).toMatch(/POST http:\/\/acme\.localhost:\d+\/api\/admin\/authentication\/token/);
    expect(exchangeText).toContain('<partner-secret-variant#');
    expect(await detail.locator('pre.replay').innerText()).toMatch(new RegExp(`^tack run --seed \\d+ --path \\S+ --only ${RULE}$`));
    const curl = await detail.locator('pre.curl').innerText();
    expect(curl).toContain('${TACK_PARTNER_SECRET');
    expect(curl).not.toContain(target.env.TACK_PARTNER_SECRET!);

    // Pasted into bash with the secret in its variable, the command gets the answer that failed.
    const recorded = /→ (\d{3})/.exec(await judged.locator('summary').innerText())![1];
    // (Asynchronously: the reference server answering it runs in this very process.)
    const { stdout: answer } = await promisify(execFile)('bash', ['-c', curl], {
      env: { PATH: process.env.PATH ?? '', TACK_PARTNER_SECRET: target.env.TACK_PARTNER_SECRET! },
    });
    expect(/^HTTP\/[\d.]+ (\d{3})/.exec(answer)?.[1]).toBe(recorded);
    expect(recorded).not.toBe('401');

    // The area filter narrows too; "all" brings every rule back.
    await page.selectOption('#filter-area', 'sign-in');
    expect(await page.locator('#rules tbody tr:visible').count()).toBe(0);
    await page.click('button[data-filter-status="all"]');
    expect(await page.locator('#rules tbody tr:visible').getAttribute('data-rule')).toBe('SIGNIN-GARBAGE-REJECTED');
    await page.selectOption('#filter-area', 'all');
    await page.click('button[data-filter-status="passed"]');
    expect(await page.locator('#rules tbody tr:visible').count()).toBe(2);
    expect(await detail.isVisible()).toBe(false);
    // The test that checks bad credentials stopped at the failure: the rest of it was not seen.
    await page.click('button[data-filter-status="skipped"]');
    expect(await page.locator('#rules tbody tr:visible').getAttribute('data-rule')).toBe('PARTNER-BAD-CREDENTIALS');
    await page.click('button[data-filter-status="failed"]');

    const shots = resolve('reports', 'browser');
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, 'report-failed-filter.png'), fullPage: true });

    expect(errors).toEqual([]);
    expect(requests).toEqual([url]);
    await page.close();
  });
});
