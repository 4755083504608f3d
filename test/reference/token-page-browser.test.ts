/**
 * The reference server's token page in a real browser (smoke test of the server's half of issue
 * 10; the conformance checks of the token-page rules live in the suites): Debian's Chromium,
 * headless, driven by playwright-core, `*.localhost` mapped to loopback by Chromium's host
 * resolver rules. One browser for the file.
 *
 * Walks the contract's flow (token-page.md) with its default locators: sign in, Generate token,
 * re-authenticate with the password only, then the masked token, the countdown from 2:00 on a
 * controlled clock, Copy, the cleared notice at 0:00, the token still exchanging, nothing after a
 * reload; and the cancelled, no-token and unreachable messages.
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceServer } from '../../src/reference/index.js';
import { exchange, names, search, start } from './helpers.js';
import { PASSWORD, urls } from './web-helpers.js';
import { LAUNCH_ARGS } from '../../src/harness/browser/browser-host.js';
import { BROWSER, noBrowserWords } from '../helpers/browser.js';

const hasChromium = BROWSER.found;
const MESSAGES = {
  unreachable: "Couldn't start API token generation. Try again.",
  cancelled: 'API token generation was cancelled.',
  noToken: 'The API token could not be generated.',
  copyBlocked: "Couldn't copy the token. Select it and copy it manually.",
  cleared: "API token cleared from the screen. If you didn't copy it, generate a new one.",
};

if (!BROWSER.found) console.warn(`test/reference: the browser test of the token page is skipped: ${BROWSER.reason}`);

describe.skipIf(!hasChromium)(`the token page in headless Chromium${noBrowserWords()}`, () => {
  let server: ReferenceServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await start();
    browser = await chromium.launch({
      executablePath: BROWSER.found ? BROWSER.path : '',
      args: LAUNCH_ARGS,
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function context(options: { clipboard?: boolean } = {}): Promise<{ ctx: BrowserContext; page: Page; errors: string[] }> {
    // Clipboard denied: `permissions: []` (without the option at all, Chromium lets the focused page write).
    const ctx = await browser.newContext({ permissions: options.clipboard === false ? [] : ['clipboard-read', 'clipboard-write'] });
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    return { ctx, page, errors };
  }

  /** Steps 1-2 of the contract: open the page with no session, sign in, come back. */
  async function signIn(page: Page): Promise<void> {
    await page.goto(urls(server).tokenPage);
    expect(new URL(page.url()).host).toBe(`id.localhost:${server.port}`);
    await page.getByRole('textbox', { name: /user ?name|e-?mail/i }).fill('alice@acme.example');
    await page.locator('input[type=password]').first().fill(PASSWORD);
    await page.getByRole('button', { name: /sign ?in|log ?in|continue|submit/i }).click();
    await page.waitForURL(urls(server).tokenPage);
  }

  /** Step 3: Generate token, then the re-authentication page. */
  async function generate(page: Page): Promise<void> {
    await page.getByRole('button', { name: /generate/i }).click();
    await page.waitForURL((u) => u.host === `id.localhost:${server.port}`);
  }

  it('signs in, re-authenticates with the password only, shows the token masked, counts down, copies, clears, and the token stays valid', async () => {
    const { ctx, page, errors } = await context();
    await page.clock.install();
    await signIn(page);
    await generate(page);
    expect(await page.getByTestId('signed-in-user').innerText()).toMatch(/Alice Archer[\s\S]*alice@acme\.example/);
    expect(await page.getByRole('textbox', { name: /user ?name|e-?mail/i }).count()).toBe(0);
    await page.locator('input[type=password]').first().fill(PASSWORD);
    await page.getByRole('button', { name: /sign ?in/i }).click();
    await page.waitForURL(urls(server).tokenPage);

    const token = page.getByTestId('api-token');
    await expect.poll(() => token.innerText()).toMatch(/^tpat_•+.{4}$/);
    expect(await page.getByText(/^\d:\d\d$/).innerText()).toBe('2:00');
    await page.getByRole('button', { name: /copy/i }).click();
    const copied = await page.evaluate<string>('navigator.clipboard.readText()');
    expect(copied).toMatch(/^tpat_[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{11}$/);
    expect((await token.innerText()).slice(-4)).toBe(copied.slice(-4));
    expect(await page.locator('body').innerText()).not.toContain(copied);
    expect(await page.content()).not.toContain(copied);
    expect(page.url()).toBe(urls(server).tokenPage); // the code left the address bar

    // The token is alice's: its access token lists her businesses.
    const first = await exchange(server, copied);
    expect(first.status).toBe(200);
    expect(names(await search(server, 'acme', first.json<{ access_token: string }>().access_token))).toContain('Acme Rockets Ltd');

    await page.clock.runFor(1000);
    expect(await page.getByTestId('api-token-countdown').innerText()).toBe('1:59');
    await page.clock.runFor(119_000);
    await expect.poll(() => page.getByText(MESSAGES.cleared, { exact: true }).isVisible()).toBe(true);
    expect(await page.getByTestId('api-token').count()).toBe(0);
    expect(await page.getByText(/^\d:\d\d$/).count()).toBe(0);
    expect((await exchange(server, first.json<{ refresh_token: string }>().refresh_token)).status).toBe(200);

    await page.reload();
    expect(await page.getByTestId('api-token').isVisible()).toBe(false);
    expect(await page.getByText(/^tpat_/).count()).toBe(0);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('says the generation was cancelled when the sign-in page is left with Cancel', async () => {
    const { ctx, page } = await context();
    await signIn(page);
    await generate(page);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL(urls(server).tokenPage);
    await expect.poll(() => page.getByText(MESSAGES.cancelled, { exact: true }).isVisible()).toBe(true);
    await ctx.close();
  });

  it('says no token could be generated without a refresh_token, and that generation could not start with the sign-in server unreachable', async () => {
    const { ctx, page } = await context();
    await signIn(page);
    // As the contract provokes it: the token response replaced by a 200 without refresh_token (with the CORS header the page needs).
    await ctx.route(urls(server).token, (route) =>
      route.fulfill({
        status: 200,
        headers: { 'access-control-allow-origin': urls(server).acme },
        json: { access_token: 'at', expires_in: 300, token_type: 'Bearer' },
      }),
    );
    await generate(page);
    await page.locator('input[type=password]').first().fill(PASSWORD);
    await page.getByRole('button', { name: /sign ?in/i }).click();
    await page.waitForURL(urls(server).tokenPage);
    await expect.poll(() => page.getByText(MESSAGES.noToken, { exact: true }).isVisible()).toBe(true);
    expect(await page.getByTestId('api-token').isVisible()).toBe(false);

    // Unreachable at the network level: the same session in a context whose proxy leads nowhere, except for the tenant host.
    const cut = await browser.newContext({ storageState: await ctx.storageState(), proxy: { server: 'http://127.0.0.1:9', bypass: 'acme.localhost' } });
    await ctx.close();
    const cutPage = await cut.newPage();
    await cutPage.goto(urls(server).tokenPage);
    await cutPage.getByRole('button', { name: /generate/i }).click();
    await expect.poll(() => cutPage.getByText(MESSAGES.unreachable, { exact: true }).isVisible()).toBe(true);
    expect(cutPage.url()).toBe(urls(server).tokenPage);
    await cut.close();
  });

  it('shows the copy-failure message when the clipboard refuses the write', async () => {
    const { ctx, page } = await context({ clipboard: false });
    await signIn(page);
    await generate(page);
    await page.locator('input[type=password]').first().fill(PASSWORD);
    await page.getByRole('button', { name: /sign ?in/i }).click();
    await page.waitForURL(urls(server).tokenPage);
    await page.getByRole('button', { name: /copy/i }).click();
    await expect.poll(() => page.getByText(MESSAGES.copyBlocked, { exact: true }).isVisible()).toBe(true);
    await ctx.close();
  });
});
