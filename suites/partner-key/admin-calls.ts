/**
 * Every partner-key endpoint (spec §4.1), ready to be sent with any credential headers: the key
 * must be checked on each of them (spec §5: "both headers on every admin API call"), not only on
 * the token call. Each call is made so that a server that skipped the key check would answer 2xx
 * and so be caught: mint for a real member, refresh a live refresh token (kept live: a token a
 * faulty server rotated is replaced by the new one), create a new user, reset a real member's
 * password.
 */
import type { PartnerClient } from '../../src/harness/clients/partner.js';
import type { TestContext } from '../../src/runner/test-context.js';
import type { HttpResponse } from '../../src/harness/http.js';
import { createMember, mintOrStop } from '../../src/steps/members.js';

interface AdminCall {
  /** `POST /api/admin/...`, with `{email}` for the e-mail path segment. */
  readonly name: string;
  send(credentials: Record<string, string>): Promise<HttpResponse>;
}

/** Why there is no refresh call to make, when there is none. */
const NO_KEY_FOR_REFRESH =
  "needs a live refresh token of the host's tenant, minted with its own key: set TACK_OTHER_PARTNER_CLIENT_ID and TACK_OTHER_PARTNER_SECRET";

/**
 * The four calls against `host`'s tenant host. `setup` holds a valid key of that host, used to make
 * the member and the live refresh token; without it (another tenant's key not configured) the
 * calls target an e-mail nobody holds, and there is no refresh call (`refresh` undefined, with the
 * reason in `noRefresh`). Neither is there when the mint answer carries no refresh token.
 */
export async function adminCalls(
  t: TestContext,
  host: PartnerClient,
  setup: PartnerClient | undefined,
  label: string,
): Promise<{ calls: AdminCall[]; refresh: AdminCall | undefined; noRefresh: string }> {
  const member = setup ? await createMember(t, label, setup) : t.names.email(`${label}-nobody`);
  let live = setup ? (await mintOrStop(t, member, setup)).refresh?.value : undefined;
  const noRefresh = setup ? 'the mint answer carried no refresh token to refresh with (see PARTNER-MINT)' : NO_KEY_FOR_REFRESH;
  const calls: AdminCall[] = [
    { name: 'POST /api/admin/authentication/token', send: async (credentials) => (await host.mint(member, { credentials })).res },
    { name: 'POST /api/admin/users', send: (credentials) => host.createUser({ email: t.names.email(label), ...t.names.person() }, { credentials }) },
    { name: 'POST /api/admin/users/{email}/reset-password', send: async (credentials) => (await host.resetPassword(member, { credentials })).res },
  ];
  const refresh: AdminCall | undefined =
    live === undefined
      ? undefined
      : {
          name: 'POST /api/admin/authentication/refresh',
          send: async (credentials) => {
            const answer = await host.refresh(live!, { credentials });
            if (answer.refresh) live = answer.refresh.value;
            return answer.res;
          },
        };
  return { calls: refresh ? [...calls, refresh] : calls, refresh, noRefresh };
}
