/**
 * "No token is issued" (spec §4.1 rule 1, §4.1 rule 2, §5): a refusal is a 4xx whose body carries
 * no token. A 2xx is acceptance; a 5xx is the server failing, which proves nothing about what it
 * would refuse, so it is not a refusal either.
 */
import { describe } from '../../src/harness/describe.js';
import { finding, type Finding } from '../../src/harness/finding.js';
import type { HttpResponse } from '../../src/harness/http.js';
import { isClientError } from './http.js';

/** `tokenField`: where a token was found in the body, if anywhere (the caller looks, whatever the status). */
export function refusedWithoutToken(res: HttpResponse, tokenField: string | undefined): Finding {
  const ok = isClientError(res) && tokenField === undefined;
  const actual = tokenField !== undefined ? `${describe(res)} with a token in ${tokenField}` : describe(res);
  return finding(ok, 'a 4xx refusal without a token', actual);
}
