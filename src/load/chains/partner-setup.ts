/**
 * Setup shared by the partner-key profiles: tenant A's key (TACK_PARTNER_*), a few users created
 * with it (`POST /api/admin/users`, run-id-tagged e-mails), and the field names of the partner
 * token answer, which the spec does not give: found on one real mint (or taken from
 * TACK_PARTNER_ACCESS_TOKEN_FIELD / TACK_PARTNER_REFRESH_TOKEN_FIELD) and then read directly on
 * every answer under load. Profiles ask for it through their context (`ctx.partner(profile)`).
 */
import { PartnerClient } from '../../harness/clients/partner.js';
import { TackError } from '../../harness/errors.js';
import { mapLimit } from './chain.js';
import type { PartnerSetup, PartnerWire, SetupContext } from '../profile.js';

/** Users minted for: enough to spread the load, few enough to keep setup short. */
const MAX_USERS = 16;

export async function partnerSetup(ctx: SetupContext, profile: string): Promise<PartnerSetup> {
  const { target, http, redactor } = ctx.session;
  if (!target.partner) {
    throw new TackError('TACK_ERR_CONFIG', `${profile} needs tenant A's partner key: set TACK_PARTNER_CLIENT_ID and TACK_PARTNER_SECRET`);
  }
  const tenant = await ctx.resolve(target.baseUrl, 'tenant host');
  const client = new PartnerClient(http, redactor, target.baseUrl, target.partner, target);
  const count = Math.max(1, Math.min(ctx.connections, MAX_USERS));
  ctx.say(`creating ${count} user(s) with the partner key`);
  const users = await mapLimit(
    Array.from({ length: count }, () => ctx.names.email('load')),
    8,
    async (email) => {
      const res = await client.createUser({ email, ...ctx.names.person() });
      if (res.status === 401)
        throw new TackError(
          'TACK_ERR_CONFIG',
          `${profile}: the tenant host refused the partner key (401) when creating a user: ` +
            'check TACK_PARTNER_CLIENT_ID / TACK_PARTNER_SECRET / TACK_PARTNER_HEADERS',
        );
      if (res.status < 200 || res.status > 299)
        throw new TackError('TACK_ERR_BAD_RESPONSE', `${profile}: creating a user with the partner key answered ${res.status}, expected 201`);
      return email;
    },
  );
  const first = await client.mint(users[0]!);
  if (first.res.status < 200 || first.res.status > 299 || !first.access) {
    throw new TackError(
      'TACK_ERR_BAD_RESPONSE',
      `${profile}: minting a token for a user just created answered ${first.res.status}` +
        `${first.access ? '' : ' without an access token that tack could find (set TACK_PARTNER_ACCESS_TOKEN_FIELD)'}`,
    );
  }
  const wire: PartnerWire = { tenant, credentials: client.headers(), accessField: first.access.field, refreshField: first.refresh?.field };
  ctx.say(`partner token fields: access ${wire.accessField}, refresh ${wire.refreshField ?? '(none found)'}`);
  return { wire, client, users };
}
