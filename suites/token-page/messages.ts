/**
 * The messages of a generation that does not end in a token (spec §7), each provoked as
 * token-page.md says and matched by its exact text:
 *
 * - sign-in page unreachable: the same signed-in user in a context whose proxy leads nowhere for
 *   every host but those the run's sign-in saw the pages load from, and whose requests to the
 *   sign-in server are aborted (a redirect's target is not seen by interception, so the network
 *   level does it too);
 * - sign-in left without completing: at the sign-in page, `redirect_uri?error=access_denied&state=`
 *   from that page's authorization request, as an OpenID server answers a Cancel. Where no sign-in
 *   page appears (the target handed out a token without asking), tack answers the authorization
 *   request itself with that redirect, as the server would;
 * - sign-in completed, no token: the page's token response replaced by a 200 without
 *   `refresh_token` (with the CORS headers a cross-origin answer needs); and, for a page that
 *   redeems its code server-side, `offline_access` removed from the scope of the authorization
 *   request (src/harness/browser/offline-access.ts), so the sign-in server issues no API token.
 *   Only a page that does neither (no code redeemed in the browser, no offline_access asked for)
 *   leaves the case not verified.
 */
import type { TestCase } from '../../src/runner/test-case.js';
import { removeOfflineAccess } from '../../src/harness/browser/offline-access.js';
import { MESSAGES, tokenEndpoint } from '../../src/harness/browser/token-page.js';
import { messageShown } from '../../src/checks/page.js';
import { judge, onTokenPage, PAGE_NEEDS, requireTokenPage, shownMessages, waitForMessage } from '../../src/steps/page-flow.js';

/** A port nothing listens on: a proxy there refuses every connection. */
const NOWHERE = 'http://127.0.0.1:9';

export const signinUnreachable: TestCase = {
  id: 'token-page/signin-unreachable',
  title: "With the sign-in page unreachable, the page says it couldn't start token generation",
  rules: ['TOKEN-PAGE-SIGNIN-UNREACHABLE'],
  needs: PAGE_NEEDS,
  async run(t) {
    await t.web.signedInState(); // the run's sign-in: it saw every host the page loads from
    const identity = new URL(t.target.identityUrl);
    const sameHost = new URL(t.target.webUrl).host === identity.host;
    const bypass = [...t.web.hostsSeen].filter((h) => h !== identity.host);
    const cut = await t.web.context(sameHost ? {} : { proxy: { server: NOWHERE, bypass: bypass.join(',') } });
    const prefix = `${t.target.identityUrl}/`;
    await cut.context.route(
      (url) => url.href.startsWith(prefix) || (!sameHost && url.host === identity.host),
      (route) => route.abort('internetdisconnected'),
    );
    if (sameHost) {
      const how = 'only its paths were cut (by interception, which misses redirect targets)';
      t.observe('TOKEN-PAGE-SIGNIN-UNREACHABLE', `the sign-in server shares the web host, so ${how}`);
    }
    await cut.open();
    await requireTokenPage(cut);
    await cut.clickGenerate();
    const shown = await waitForMessage(cut, MESSAGES.signinUnreachable);
    const found = messageShown(shown, MESSAGES.signinUnreachable, await shownMessages(cut));
    await judge(t, cut, 'TOKEN-PAGE-SIGNIN-UNREACHABLE', 'Generate token with the sign-in server unreachable', found);
  },
};

export const cancelled: TestCase = {
  id: 'token-page/cancelled',
  title: 'A sign-in left without completing shows the exact cancelled message',
  rules: ['TOKEN-PAGE-CANCELLED'],
  needs: PAGE_NEEDS,
  async run(t) {
    const { page } = await onTokenPage(t);
    const arrived = await page.pressGenerate();
    if (arrived.kind === 'password') {
      const request = page.authorizationRequest();
      if (request === undefined) {
        const why = 'the sign-in page was reached by no authorization request with a redirect_uri and a state that tack could see';
        t.unverified('TOKEN-PAGE-CANCELLED', 'leave the sign-in page without completing it', why);
        return;
      }
      await page.page.goto(cancelUrl(request.redirectUri, request.state));
    } else {
      let answered = false;
      await page.context.route(
        (url) => url.href.startsWith(`${t.target.identityUrl}/`) && url.searchParams.has('redirect_uri') && url.searchParams.has('state'),
        (route) => {
          const url = new URL(route.request().url());
          answered = true;
          const location = cancelUrl(url.searchParams.get('redirect_uri')!, url.searchParams.get('state')!);
          return route.fulfill({ status: 302, headers: { location, 'cache-control': 'no-store' } });
        },
      );
      t.observe(
        'TOKEN-PAGE-CANCELLED',
        'Generate token showed no sign-in page to leave: tack answered the authorization request with error=access_denied itself, as the server does on Cancel',
      );
      await page.open();
      await requireTokenPage(page);
      await page.clickGenerate();
      await page.waitFor(async () => (answered ? true : undefined));
      if (!answered) {
        const why = 'no sign-in page appeared and no authorization request was seen to answer';
        t.unverified('TOKEN-PAGE-CANCELLED', 'leave the sign-in page without completing it', why);
        return;
      }
    }
    const shown = await waitForMessage(page, MESSAGES.cancelled);
    const found = messageShown(shown, MESSAGES.cancelled, await shownMessages(page));
    await judge(t, page, 'TOKEN-PAGE-CANCELLED', 'back from the sign-in page with error=access_denied', found);
  },
};

export const noToken: TestCase = {
  id: 'token-page/no-token',
  title: 'A sign-in that returns no token shows the exact could-not-generate message',
  rules: ['TOKEN-PAGE-NO-TOKEN'],
  needs: PAGE_NEEDS,
  async run(t) {
    const { page, user } = await onTokenPage(t);
    let replaced = 0;
    const endpoint = tokenEndpoint(t.target);
    await page.context.route(
      (url) => `${url.origin}${url.pathname}` === endpoint,
      (route) => {
        const request = route.request();
        const origin = request.headers()['origin'] ?? new URL(t.target.webUrl).origin;
        const cors = { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true', vary: 'Origin' };
        if (request.method() === 'OPTIONS') {
          const headers = request.headers()['access-control-request-headers'];
          const allowed = { 'access-control-allow-methods': 'POST', ...(headers ? { 'access-control-allow-headers': headers } : {}) };
          return route.fulfill({ status: 204, headers: { ...cors, ...allowed } });
        }
        if (request.method() !== 'POST') return route.continue();
        replaced++;
        const json = { access_token: 'tack-replaced-answer-without-a-token', expires_in: 300, token_type: 'Bearer' };
        return route.fulfill({ status: 200, headers: { ...cors, 'cache-control': 'no-store' }, json });
      },
    );
    const cut = await removeOfflineAccess(page.context, t.target.identityUrl, t.target.insecureTls);
    const first = await page.pressGenerate();
    const before = page.page.url();
    if (first.kind === 'password') await page.typePassword(user.password, user.email);
    const shown = await waitForMessage(page, MESSAGES.noToken, undefined, true);
    // TACK_USER_PASSWORD that did not end signed in is typed no more (src/harness/browser/password-guard.ts).
    if (!shown && first.kind === 'password') await page.signedInAfter(user.password, await page.outcome({ ms: 0 }), before);
    if (replaced === 0 && cut.stripped === 0) {
      const asked = cut.seen > 0 ? 'its authorization request asks for no offline_access to remove' : 'no authorization request was seen';
      const why = `the page redeemed no code in the browser (its exchange happens server-side), and ${asked}`;
      t.unverified('TOKEN-PAGE-NO-TOKEN', 'a sign-in that returns no token', why);
      return;
    }
    const found = messageShown(shown, MESSAGES.noToken, await shownMessages(page));
    const how = replaced > 0 ? 'the token response without refresh_token' : 'offline_access removed from the authorization request (server-side page)';
    await judge(t, page, 'TOKEN-PAGE-NO-TOKEN', `back from the sign-in page, ${how}`, found);
  },
};

function cancelUrl(redirectUri: string, state: string): string {
  const url = new URL(redirectUri);
  url.searchParams.set('error', 'access_denied');
  url.searchParams.set('state', state);
  return url.href;
}
