/**
 * "No token is issued" (spec §4.1 rule 1, §4.1 rule 2, §5): a refusal is a 4xx whose body carries
 * no token. A 2xx is acceptance; a 5xx is the server failing, which proves nothing about what it
 * would refuse, so it is not a refusal either.
 */
import { describeResponse } from './describe-response.js';
import { finding, type Finding } from './finding.js';
import type { HttpResponse } from '../harness/http.js';
import { isClientError } from './response.js';

/** `tokenField`: where a token was found in the body, if anywhere (the caller looks, whatever the status). */
export function refusedWithoutToken(res: HttpResponse, tokenField: string | undefined): Finding {
  const ok = isClientError(res) && tokenField === undefined;
  const actual = tokenField !== undefined ? `${describeResponse(res)} with a token in ${tokenField}` : describeResponse(res);
  return finding(ok, 'a 4xx refusal without a token', actual);
}

/**
 * No action URL for someone who is not a user of the tenant (spec §5: the key acts for its own
 * tenant's users only): a 4xx refusal, or a 2xx that carries no URL (a service may answer alike
 * whether the address is known or not). `urlField`: where an action URL was found in a 2xx, if
 * anywhere. A refusal's body is not searched: a problem's `type` is often an absolute URL.
 */
export function noActionUrl(res: HttpResponse, urlField: string | undefined): Finding {
  const refused = isClientError(res);
  // Stryker disable next-line EqualityOperator: a 400 is refused, and holds before this is asked.
  const ok = refused || (res.status < 400 && urlField === undefined);
  const actual = !refused && urlField !== undefined && res.status < 400 ? `${describeResponse(res)} with an action URL in ${urlField}` : describeResponse(res);
  return finding(ok, 'a 4xx, or an answer without an action URL', actual);
}
