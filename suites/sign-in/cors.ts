/**
 * No cross-origin access to the sign-in server (spec §4.2: "does not accept calls from web pages of
 * other sites"). Judged by what a page of another site can achieve: a form POST is a simple request
 * that a browser sends without any preflight, so the real request is what counts. It must be
 * refused, or its answer must carry no Access-Control-Allow-Origin for the page's origin (then the
 * browser hides the answer from the page). A preflight is only observed: a server may answer one
 * generously and still refuse the request itself (oidc-provider does).
 *
 * The POSTs carry a never-issued token, so nothing is exchanged or revoked; a real exchange is sent
 * too, since some servers add CORS headers only to successful answers: of a token tack owns (the
 * hook's, or one generated through the token page), or else of the token file's chain (an ordinary
 * rotation, stored like every other). With neither, that part is not checked.
 */
import type { TestCase } from '../../src/runner/test-case.js';
import { allowsOrigin, noCrossOriginAllowance } from '../../src/checks/cors.js';
import type { TestPart } from '../../src/runner/needs.js';

const ORIGIN = 'https://evil.example';
/** Never issued by anyone; long enough not to blank out output when the redactor registers it. */
const NOT_A_TOKEN = 'tack-cors-probe-not-a-token-0000';

const REAL_EXCHANGE: TestPart = { rule: 'SIGNIN-NO-CORS', title: `a successful exchange sent from ${ORIGIN}`, needs: ['api-token'] };

export const noCors: TestCase = {
  id: 'sign-in/no-cors',
  title: 'A page of another site can neither exchange nor read at the sign-in server',
  rules: ['SIGNIN-NO-CORS'],
  needs: [],
  parts: [REAL_EXCHANGE],
  async run(t) {
    const form = 'application/x-www-form-urlencoded';
    const token = new URLSearchParams({ grant_type: 'refresh_token', client_id: t.target.clientId, refresh_token: NOT_A_TOKEN }).toString();
    const revoke = new URLSearchParams({ client_id: t.target.clientId, token_type_hint: 'refresh_token', token: NOT_A_TOKEN }).toString();
    for (const [name, url, body] of [
      ['token endpoint', t.identity.tokenUrl, token],
      ['revoke endpoint', t.identity.revokeUrl, revoke],
    ] as const) {
      const post = await t.identity.raw('POST', url, { origin: ORIGIN, 'content-type': form }, body);
      t.soft('SIGNIN-NO-CORS', `POST to the ${name} from ${ORIGIN}: the page may not read the answer`, noCrossOriginAllowance(post, ORIGIN));
      const preflight = await t.identity.raw('OPTIONS', url, {
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      });
      const granted = preflight.status >= 200 && preflight.status <= 299 && allowsOrigin(preflight, ORIGIN);
      t.observe(
        'SIGNIN-NO-CORS',
        `a preflight to the ${name} from ${ORIGIN} answered ${preflight.status}${granted ? ', granting the origin' : ''}; ` +
          'judged by the request itself, which a form POST sends without a preflight',
      );
    }
    if (!t.can(REAL_EXCHANGE)) return;
    const chain = t.tokens.canOwn ? await t.tokens.own() : await t.tokens.chain();
    const result = await chain.exchange({ headers: { origin: ORIGIN } });
    t.soft(
      'SIGNIN-NO-CORS',
      `a real exchange sent from ${ORIGIN} (answered ${result.res.status}): the page may not read the answer`,
      noCrossOriginAllowance(result.res, ORIGIN),
    );
  },
};
