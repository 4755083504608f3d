/** RFC 6750 §3: a 401 from a Bearer-protected API carries a Bearer challenge. */
import { finding, type Finding } from './finding.js';
import type { HttpResponse } from '../harness/http.js';

export function bearerChallenge(res: HttpResponse): Finding {
  const challenge = res.headers['www-authenticate'];
  // Stryker disable next-line ConditionalExpression: no header tests as the text "undefined", no Bearer either.
  const ok = challenge !== undefined && /(^|,)\s*bearer\b/i.test(challenge);
  return finding(ok, 'a Bearer challenge', challenge === undefined ? 'no WWW-Authenticate header' : challenge);
}
