/**
 * No call to the token or revoke endpoint is answered 5xx, well-formed or not (SHOULD: the spec
 * names only invalid_grant; RFC 6749 §5.2 answers the rest with 400): no grant_type, one the
 * server does not support, no token, a body of another type. Garbage tokens only, and no password:
 * nothing can be issued, locked or revoked on a real account. Every other answer of the sign-in
 * server in the run is judged by suites/run-wide/every-answer.ts.
 */
import { signInRequests } from '../../fixtures/malformed-requests.js';
import type { TestCase } from '../../src/runner/test-case.js';
import { notServerError } from '../../src/checks/server-error.js';

export const signInMalformedRequests: TestCase = {
  id: 'sign-in/malformed-requests',
  title: 'Malformed calls to the token and revoke endpoints: no 5xx',
  rules: ['SIGNIN-NO-SERVER-ERROR'],
  needs: [],
  async run(t) {
    for (const request of signInRequests(t.target.clientId)) {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (request.contentType !== undefined) headers['content-type'] = request.contentType;
      const res = await t.identity.raw(request.method, `${t.target.identityUrl}${request.path}`, headers, request.body);
      t.soft('SIGNIN-NO-SERVER-ERROR', `${request.method} ${request.path}: ${request.kind}`, notServerError(res));
    }
  },
};
