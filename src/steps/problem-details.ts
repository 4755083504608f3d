/** Partner-key errors are problem details (spec §7, RFC 7807): the step the partner-key tests take on every 4xx they see. */
import { problemBody, problemMediaType, problemStatusMember } from '../checks/problem.js';
import { isClientError } from '../checks/response.js';
import type { HttpResponse } from '../harness/http.js';
import type { TestContext } from '../runner/test-context.js';

/**
 * PARTNER-PROBLEM-DETAILS on one error answer: `application/problem+json`, a JSON object body, and
 * a `status` member equal to the HTTP status when there is one. Soft: the caller's own rule goes
 * on. Only 4xx are judged (the rule is about the errors of §7); call it outside properties, so a
 * problem-details fault is never reported under the property's rule.
 */
export function checkProblem(t: TestContext, res: HttpResponse, what: string): void {
  if (!isClientError(res)) return;
  t.soft('PARTNER-PROBLEM-DETAILS', `${what}: content type`, problemMediaType(res));
  t.soft('PARTNER-PROBLEM-DETAILS', `${what}: body`, problemBody(res));
  t.soft('PARTNER-PROBLEM-DETAILS', `${what}: status member`, problemStatusMember(res));
}
