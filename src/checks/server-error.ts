/**
 * Server errors (Schemathesis' `not_a_server_error`): whatever a request holds, well-formed or not,
 * the answer is never a 5xx. A 5xx is the server failing, not an answer: it says nothing of what
 * the server accepts or refuses. And a 401 is a credentials status (spec §7): a request whose
 * credentials are right and whose body or parameters are wrong is not answered 401.
 */
import { describeResponse } from './describe-response.js';
import { finding, type Finding } from './finding.js';
import type { HttpResponse } from '../harness/http.js';

/** One answer: not 5xx. */
export function notServerError(res: HttpResponse): Finding {
  return finding(res.status < 500, 'not a 5xx', describeResponse(res));
}

/** Many answers (`what` says which request each answered): none 5xx; the first that is, named. */
export function noServerErrors(answers: readonly { readonly res: HttpResponse; readonly what: string }[]): Finding {
  const failed = answers.filter((a) => a.res.status >= 500);
  const [first] = failed;
  return finding(
    first === undefined,
    'no 5xx',
    first === undefined
      ? `${answers.length} answer(s), none 5xx`
      : `${failed.length} of ${answers.length} answered 5xx, the first ${describeResponse(first.res)} to ${first.what}`,
  );
}

/**
 * A request sent with valid credentials and something else wrong: not the credentials status 401.
 * Whether it is refused (400, 415) or taken leniently is for the rules on that call; a 5xx is
 * {@link notServerError}'s, judged apart (a baseline accepting one must not accept the other).
 */
export function not401(res: HttpResponse): Finding {
  return finding(res.status !== 401, 'not 401 (the credentials were right)', describeResponse(res));
}
