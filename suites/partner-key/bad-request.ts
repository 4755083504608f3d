/**
 * Malformed bodies (spec §7: "400: malformed body or missing required fields") on the partner
 * calls that take one: create user, get user token, refresh. A fixed set every run (each required
 * member missing or of the wrong type, invalid JSON, an array, null), then a property over the rest.
 */
import { essentialMalformations, malformedBody, MINT_BODY, REFRESH_BODY, USER_BODY, type BodyShape, type Malformation } from '../../fixtures/malformed.js';
import type { TestContext } from '../../src/runner/test-context.js';
import type { TestCase } from '../../src/runner/test-case.js';
import { status } from '../../src/checks/response.js';
import { checkProblem } from '../../src/steps/problem-details.js';
import { PATHS } from '../../src/spec.js';

interface Endpoint {
  readonly path: string;
  readonly shape: BodyShape;
  /** A valid body for this call, fresh each time (new e-mail). */
  valid(t: TestContext): Record<string, unknown>;
}

const ENDPOINTS: readonly Endpoint[] = [
  { path: PATHS.users, shape: USER_BODY, valid: (t) => ({ email: t.names.email('malformed'), ...t.names.person(), timeZone: 'Europe/Berlin' }) },
  { path: PATHS.mint, shape: MINT_BODY, valid: (t) => ({ username: t.names.email('malformed') }) },
  { path: PATHS.partnerRefresh, shape: REFRESH_BODY, valid: () => ({ refreshToken: 'tack-not-a-refresh-token' }) },
];

async function send(t: TestContext, endpoint: Endpoint, malformation: Malformation) {
  return t.partner.call('POST', endpoint.path, { body: malformation.render(endpoint.valid(t)), contentType: 'application/json' });
}

export const badRequest: TestCase = {
  id: 'partner-key/bad-request',
  title: 'Malformed bodies, missing required fields and wrong types are refused with 400',
  rules: ['PARTNER-BAD-REQUEST', 'PARTNER-PROBLEM-DETAILS'],
  needs: ['partner'],
  async run(t) {
    for (const endpoint of ENDPOINTS) {
      for (const malformation of essentialMalformations(endpoint.shape)) {
        const res = await send(t, endpoint, malformation);
        t.soft('PARTNER-BAD-REQUEST', `POST ${endpoint.path} with ${malformation.kind}`, status(res, 400));
        checkProblem(t, res, `POST ${endpoint.path} with ${malformation.kind}`);
      }
    }
    const users = ENDPOINTS[0]!;
    await t.property('PARTNER-BAD-REQUEST', `POST ${users.path} with a malformed body answers 400`, malformedBody(users.shape), async (malformation) => {
      const res = await send(t, users, malformation);
      t.check('PARTNER-BAD-REQUEST', `POST ${users.path} with ${malformation.kind}`, status(res, 400));
    });
  },
};
