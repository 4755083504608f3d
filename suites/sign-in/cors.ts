/**
 * No CORS at the sign-in server (spec §4.2: "does not accept calls from web pages of other sites").
 * What a browser needs to let a foreign page read a response is an Access-Control-Allow-Origin
 * naming that page's origin, or "*"; for a preflight, additionally a 2xx status. So:
 * - a POST to the token and revoke endpoints with `Origin: https://evil.example` carries no
 *   Access-Control-Allow-Origin that matches (absent, or another origin);
 * - a preflight (OPTIONS with Origin and Access-Control-Request-Method: POST) is not granted: not a
 *   2xx with a matching Access-Control-Allow-Origin.
 * The POSTs carry a never-issued token, so nothing is exchanged or revoked; where tack owns a real
 * token (hook) a real exchange is probed too, since some servers add CORS headers only to
 * successful answers.
 */
import type { TestContext } from '../../src/harness/context.js';
import type { HttpResponse } from '../../src/harness/http.js';
import type { TestCase } from '../../src/harness/types.js';

const RULE = 'SIGNIN-NO-CORS';
const ORIGIN = 'https://evil.example';
/** Never issued by anyone; long enough not to blank out output when the redactor registers it. */
const NOT_A_TOKEN = 'tack-cors-probe-not-a-token-0000';

export const noCors: TestCase = {
  id: 'sign-in/no-cors',
  title: 'The sign-in server grants no cross-origin access',
  rules: ['SIGNIN-NO-CORS'],
  needs: [],
  async run(t) {
    const form = 'application/x-www-form-urlencoded';
    const token = new URLSearchParams({ grant_type: 'refresh_token', client_id: t.target.clientId, refresh_token: NOT_A_TOKEN }).toString();
    const revoke = new URLSearchParams({ client_id: t.target.clientId, token_type_hint: 'refresh_token', token: NOT_A_TOKEN }).toString();
    for (const [name, url, body] of [
      ['token endpoint', t.identity.tokenUrl, token],
      ['revoke endpoint', t.identity.revokeUrl, revoke],
    ] as const) {
      const post = await t.identity.raw('POST', url, { origin: ORIGIN, 'content-type': form }, body);
      judgeResponse(t, `POST to the ${name} from ${ORIGIN}`, post);
      const preflight = await t.identity.raw('OPTIONS', url, {
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      });
      const allowed = allowsOrigin(preflight);
      const granted = preflight.status >= 200 && preflight.status <= 299 && allowed;
      t.soft(RULE, `preflight to the ${name} from ${ORIGIN}`, !granted, 'not granted (no 2xx with a matching Access-Control-Allow-Origin)', preflightText(preflight));
      if (!granted && allowed) t.observe(RULE, `the preflight to the ${name} names the foreign origin, but answers ${preflight.status}, so browsers still refuse it`);
    }
    if (t.tokens.fromHook) {
      const chain = await t.tokens.own();
      const result = await t.identity.exchange(chain.current, { headers: { origin: ORIGIN } });
      judgeResponse(t, `a real exchange sent from ${ORIGIN} (answered ${result.res.status})`, result.res);
    }
  },
};

function allowOrigin(res: HttpResponse): string | undefined {
  return res.headers['access-control-allow-origin'];
}

function allowsOrigin(res: HttpResponse): boolean {
  const value = allowOrigin(res)?.trim();
  return value === '*' || value?.toLowerCase() === ORIGIN;
}

function judgeResponse(t: TestContext, what: string, res: HttpResponse): void {
  const value = allowOrigin(res);
  t.soft(RULE, what, !allowsOrigin(res), `no Access-Control-Allow-Origin for ${ORIGIN} (nor *)`, value === undefined ? 'none' : `Access-Control-Allow-Origin: ${value}`);
}

function preflightText(res: HttpResponse): string {
  const value = allowOrigin(res);
  return `${res.status}, ${value === undefined ? 'no Access-Control-Allow-Origin' : `Access-Control-Allow-Origin: ${value}`}`;
}
