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
