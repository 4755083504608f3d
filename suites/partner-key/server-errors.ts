/**
 * No partner-key call is answered 5xx, well-formed or not (spec §7 lists every status of these
 * endpoints: 400, 401, 409; none is a 5xx), and a call whose credentials are right is not answered
 * 401, the credentials status, for a problem of its body, path or method. A sweep over every
 * partner-key endpoint with the malformed requests of fixtures/malformed-requests.ts, sent with the
 * valid key; every other answer of the run is judged by suites/run-wide/every-answer.ts.
 *
 * A malformed call a lenient server reads past (`readsAs`) may be refused as the call it reads as:
 * a refresh token never issued may be 401; a call for a user the tenant does not have may be 401
 * where the well-formed call for that unknown user is 401 too (the spec gives it no status), so
 * the well-formed mint and reset for an unknown address are sent first, as the baseline.
 *
 * The two conditions are two checks, keyed by the request and the condition
 * (`.../<method>-<endpoint>-<kind>/5xx` and `.../401`, in lower case with dashes for anything else):
 * a baseline that accepts one accepts only it.
 */
import { type LenientReading, PARTNER_REQUESTS, resetPath, STRANGER } from '../../fixtures/malformed-requests.js';
import type { TestCase } from '../../src/runner/test-case.js';
import { keyed } from '../../src/runner/test-context.js';
import { not401, notServerError } from '../../src/checks/server-error.js';

export const partnerMalformedRequests: TestCase = {
  id: 'partner-key/malformed-requests',
  title: 'Malformed calls to every partner-key endpoint, with the valid key: no 5xx, and no 401',
  rules: ['PARTNER-NO-SERVER-ERROR'],
  needs: ['partner'],
  async run(t) {
    const mint = (await t.partner.mint(STRANGER)).res;
    const reset = await t.partner.call('POST', resetPath(STRANGER), { contentType: null });
    const may401: Record<LenientReading, boolean> = {
      'a refresh token never issued': true,
      'a mint for an unknown user': mint.status === 401,
      'a reset for an unknown user': reset.status === 401,
    };
    for (const request of PARTNER_REQUESTS) {
      const res = await t.partner.call(request.method, request.path, {
        ...(request.body === undefined ? {} : { body: request.body }),
        contentType: request.contentType ?? null,
      });
      const endpoint = request.path.split('?')[0]!.replace(/\/users\/[^/]+\/reset-password$/, '/users/{email}/reset-password');
      const title = `${request.method} ${endpoint}: ${request.kind}`;
      const key = slug(title);
      t.soft('PARTNER-NO-SERVER-ERROR', keyed(`${key}/5xx`, `${title}: not a 5xx`), notServerError(res));
      if (request.readsAs === undefined || !may401[request.readsAs])
        t.soft('PARTNER-NO-SERVER-ERROR', keyed(`${key}/401`, `${title}: not 401 (the credentials were right)`), not401(res));
    }
  },
};

/** A request's words as a check key: lower case, a dash for every run of anything else (no spaces in an id). */
function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
