/**
 * Steps the partner-key tests share: making a member through the partner key, finding tokens in a
 * body whatever its status, and judging problem details (spec §7, RFC 7807).
 */
import { findAccessToken, findRefreshToken } from '../../src/harness/clients/fields.js';
import type { PartnerClient, PartnerTokens } from '../../src/harness/clients/partner.js';
import type { TestContext } from '../../src/harness/context.js';
import type { HttpResponse } from '../../src/harness/http.js';

/**
 * Creates a user through `client` (tenant A's key unless told) and returns its e-mail. A refusal is
 * not a verdict on the rule the caller checks: the test stops in `error` with the status named.
 */
export async function createMember(t: TestContext, label: string, client: PartnerClient = t.partner, email = t.names.email(label)): Promise<string> {
  const res = await client.createUser({ email, ...t.names.person() });
  if (res.status < 200 || res.status > 299) {
    throw new Error(`could not create a user through the partner key at ${client.baseUrl} (precondition): POST /api/admin/users answered ${res.status}`);
  }
  return email;
}

/** Mints for `email` and insists on an access token (precondition of the caller's checks). */
export async function mintOrStop(t: TestContext, email: string, client: PartnerClient = t.partner): Promise<PartnerTokens & { access: NonNullable<PartnerTokens['access']> }> {
  const minted = await client.mint(email);
  if (!minted.access) {
    throw new Error(`could not mint a token for a member at ${client.baseUrl} (precondition): ${minted.res.status}, no access token found`);
  }
  return { ...minted, access: minted.access };
}

/**
 * Names the field of a token found in the body, whatever the status: "no token issued" holds only
 * when neither an access nor a refresh token appears anywhere a client would look.
 */
export function tokenInBody(t: TestContext, res: HttpResponse): string | undefined {
  const fields = t.target.fields;
  const found = findAccessToken(res.json, fields.partnerAccessToken) ?? findRefreshToken(res.json, fields.partnerRefreshToken);
  if (found) t.redactor.register('secret', found.value);
  return found?.field;
}

export function is2xx(res: HttpResponse): boolean {
  return res.status >= 200 && res.status <= 299;
}

/**
 * PARTNER-PROBLEM-DETAILS on one error response: `application/problem+json`, and a `status` member
 * equal to the HTTP status when there is one. Soft: the caller's own rule goes on. Only 4xx are
 * judged (the rule is about the errors of §7); call it outside properties, so a problem-details
 * fault is never reported under the property's rule.
 */
export function checkProblem(t: TestContext, res: HttpResponse, what: string): void {
  if (res.status < 400 || res.status > 499) return;
  const type = (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  t.soft('PARTNER-PROBLEM-DETAILS', `${what}: content type`, type === 'application/problem+json', 'application/problem+json', type || '(none)');
  const status = (res.json as { status?: unknown } | undefined)?.status;
  if (status !== undefined) t.soft('PARTNER-PROBLEM-DETAILS', `${what}: status member`, status === res.status, String(res.status), JSON.stringify(status));
}
