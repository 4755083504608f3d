/**
 * Doctor, section `browser`: the browser part of a run: whether a Chromium was found (and starts),
 * whether the token page opens, and whether signing in works with TACK_USER_EMAIL and
 * TACK_USER_PASSWORD. It never presses Generate token: no token is made.
 */
import type { Redactor } from '../harness/redactor.js';
import { findBrowser } from '../harness/browser/executable.js';
import { BrowserHost } from '../harness/browser/browser-host.js';
import { describeUrl, scrub, TokenPage, tokenPageUrl, visible } from '../harness/browser/token-page.js';
import type { TargetConfig } from '../harness/target-config.js';
import type { Say } from './diagnosis.js';

export async function diagnoseWeb(target: TargetConfig, redactor: Redactor, hookMakesUsers: boolean, webDown: boolean, say: Say): Promise<void> {
  const found = findBrowser(target.browser);
  if (!found.found) {
    const tokens = target.userPassword ? ', and no token can be generated through the page' : '';
    say('warning', `no browser: ${found.reason}. The token-page rules will be skipped${tokens}`);
    return;
  }
  const url = tokenPageUrl(target);
  if (webDown) {
    say('ok', `${found.how}: ${found.path}`);
    say('skipped', `the token page ${url} was not tried: its host is not reachable`);
    return;
  }
  const host = new BrowserHost(target.browser, Math.max(5_000, target.requestTimeoutMs));
  try {
    let page: TokenPage;
    try {
      const context = await host.newContext({});
      const site = { webUrl: target.webUrl, identityUrl: target.identityUrl, selectors: target.uiSelectors, redactor, waitMs: host.actionTimeoutMs };
      page = new TokenPage(context, await context.newPage(), site);
    } catch (error) {
      const fix = "TACK_BROWSER names another; apt-get install -y chromium installs Debian's";
      say('problem', `${found.how} ${found.path} was found but does not start: ${message(error)} (${fix})`);
      return;
    }
    say('ok', `${found.how} starts (${host.launchMs} ms): ${found.path}`);
    try {
      const res = await page.page.goto(url, { waitUntil: 'load' });
      const status = res?.status() ?? 0;
      const where = describeUrl(page.page.url());
      if (status >= 400) {
        say('problem', `the token page ${url} led to ${where}, which answered ${status}: check TACK_WEB_URL (default TACK_BASE_URL)`);
        return;
      }
      const signInForm = await visible(page.of('password'));
      say('ok', `the token page ${url} opens${signInForm ? `, and asks for a sign-in at ${where}` : ` at ${where}`}`);
    } catch (error) {
      say('problem', `the token page ${url} could not be opened in the browser: ${message(error)}; check TACK_WEB_URL (default TACK_BASE_URL)`);
      return;
    }
    if (target.userEmail === undefined || target.userPassword === undefined) {
      say(
        'skipped',
        hookMakesUsers
          ? 'sign-in not tried: a run signs in as users it creates through the hook (passwords)'
          : 'sign-in not tried: no TACK_USER_EMAIL with TACK_USER_PASSWORD (and no hook that creates users with passwords): ' +
              'the token-page rules will be skipped',
      );
      return;
    }
    try {
      await page.signIn(target.userEmail, target.userPassword);
      say('ok', `signed in as ${target.userEmail}: back at ${page.where()} (no token generated)`);
    } catch (error) {
      const fix = 'check TACK_USER_EMAIL and TACK_USER_PASSWORD (and TACK_UI_SELECTORS if the sign-in form has other labels)';
      say('problem', `sign-in did not work: ${message(error)}; ${fix}`);
    }
  } finally {
    await host.close();
  }
}

function message(error: unknown): string {
  return scrub((error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '');
}
