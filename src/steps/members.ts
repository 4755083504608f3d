/**
 * Members made and minted for through the partner key (spec §4.1): a member, a member whose tokens
 * can prove they work, a minted pair that must exist before a test goes on, and the tokens found in
 * a body whatever its status.
 */
import { findAccessToken, findRefreshToken } from '../harness/clients/fields.js';
import type { PartnerClient, PartnerTokens } from '../harness/clients/partner.js';
import type { TestContext } from '../runner/test-context.js';
import type { HttpResponse } from '../harness/http.js';
import type { Reads } from '../harness/readers.js';
import { isSuccess } from '../checks/response.js';

/**
 * Creates a user through `client` (tenant A's key unless told) and returns its e-mail. A refusal is
 * not a verdict on the rule the caller checks: the test stops in `error` with the status named.
 */
export async function createMember(t: TestContext, label: string, client: PartnerClient = t.partner, email = t.names.email(label)): Promise<string> {
  const res = await client.createUser({ email, ...t.names.person() });
  if (!isSuccess(res)) {
    throw new Error(`could not create a user through the partner key at ${client.baseUrl} (precondition): POST /api/admin/users answered ${res.status}`);
  }
  return email;
}

/**
 * A member of tenant A whose minted tokens can prove they work: one tack creates with the partner
 * key and gives read access through the hook, or TACK_USER_EMAIL. Undefined when there is none
 * (the caller marks what it cannot see as unverified, with NO_READER).
 */
export async function readerMember(t: TestContext, label: string): Promise<{ email: string; reads: Reads } | undefined> {
  if (t.readers.canGrant) {
    const email = await createMember(t, label);
    return { email, reads: await t.readers.grant(t.target.tenant, email) };
  }
  if (t.target.userEmail) return { email: t.target.userEmail, reads: { kind: 'some' } };
  return undefined;
}

/** Mints for `email` and insists on an access token (precondition of the caller's checks). */
export async function mintOrStop(
  t: TestContext,
  email: string,
  client: PartnerClient = t.partner,
): Promise<PartnerTokens & { access: NonNullable<PartnerTokens['access']> }> {
  const minted = await client.mint(email);
  if (!minted.access) {
    throw new Error(`could not mint a token for a member at ${client.baseUrl} (precondition): ${minted.res.status}, no access token found`);
  }
  return { ...minted, access: minted.access };
}

/** A member's minted tokens, refresh token required (precondition). */
export async function mintedPair(t: TestContext, email: string, client: PartnerClient = t.partner): Promise<{ access: string; refresh: string }> {
  const minted = await mintOrStop(t, email, client);
  if (!minted.refresh) throw new Error(`the mint answer carried no refresh token (precondition; see PARTNER-MINT): ${minted.res.status}`);
  return { access: minted.access.value, refresh: minted.refresh.value };
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
