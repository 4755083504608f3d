/**
 * The `TACK_*` variables of `docs/contracts/target-config.md` for one running server: tenant A is
 * acme, tenant B is globex. Secrets are in here; callers that print anything must print from
 * `urls`, never from this record.
 *
 * TACK_USER_EMAIL is left out on purpose: it is a hookless-mode variable that goes only together
 * with TACK_API_TOKEN_FILE (tack's config refuses one without the other). `tack serve --hookless`
 * adds both; in code the seeded user is `ReferenceServer.userEmail`.
 */
import type { Directory } from './directory.js';

interface EnvInput {
  readonly urls: { readonly tenants: Record<string, string>; readonly identity: string; readonly hook: string };
  readonly directory: Directory;
  readonly partnerHeaders: readonly [string, string];
  readonly clientId: string;
  readonly hookToken: string;
  readonly tenantA: string;
  readonly tenantB: string;
}

export function buildEnv(input: EnvInput): Record<string, string> {
  const a = input.directory.tenant(input.tenantA);
  const b = input.directory.tenant(input.tenantB);
  if (a === undefined || b === undefined) throw new Error('the seeded tenants are missing');
  return {
    TACK_BASE_URL: input.urls.tenants[a.name] ?? '',
    TACK_IDENTITY_URL: input.urls.identity,
    TACK_PARTNER_CLIENT_ID: a.partner.clientId,
    TACK_PARTNER_SECRET: a.partner.secret,
    TACK_PARTNER_HEADERS: input.partnerHeaders.join(','),
    TACK_OTHER_BASE_URL: input.urls.tenants[b.name] ?? '',
    TACK_OTHER_PARTNER_CLIENT_ID: b.partner.clientId,
    TACK_OTHER_PARTNER_SECRET: b.partner.secret,
    TACK_CLIENT_ID: input.clientId,
    TACK_HOOK_URL: input.urls.hook,
    TACK_HOOK_TOKEN: input.hookToken,
  };
}
