/**
 * Multi-tenant narrowing (spec §4.1 rule 1): one person is a user of tenants A and B (made with the
 * hook), with read access to a business in each when the hook can grant it. A token minted with
 * A's key shows A's business at A's host and is refused at B's host; with B's key configured, the
 * same holds the other way round. A target that cannot narrow may refuse to mint at all.
 */
import { sampleBusinesses } from '../fixtures/businesses.js';
import type { TestContext } from '../src/harness/context.js';
import type { PartnerClient } from '../src/harness/clients/partner.js';
import type { TestCase } from '../src/harness/types.js';
import { acceptedBy, expectListed, expectNotListed, hookHas, type Wanted } from '../suites/api/support.js';
import { is2xx } from '../suites/partner-key/support.js';

interface Side {
  readonly name: 'A' | 'B';
  readonly host: string;
  readonly business: Wanted | undefined;
}

export const multiTenantNarrowing: TestCase = {
  id: 'scenario/multi-tenant-narrowing',
  title: "Multi-tenant narrowing: a user of two tenants gets, from each tenant's key, a token good only at that tenant",
  rules: ['PARTNER-TENANT-NARROWING'],
  needs: ['partner', 'other-tenant', 'hook:users'],
  async run(t) {
    const email = t.names.email('narrowing');
    const tenants = [t.target.tenant, t.target.otherTenant!] as const;
    for (const tenant of tenants) await t.hook.createUser(tenant, { email, ...t.names.person(), signIn: 'direct' });

    // With the hook's businesses and access, each side gets one readable business, so "works" and
    // "refused" are seen in what is listed, not only in status codes.
    const businesses: (Wanted | undefined)[] = [undefined, undefined];
    if (hookHas(t, 'businesses', 'access')) {
      const drafts = sampleBusinesses(t.parts.runId, t.fc.seed, 2);
      for (const [i, tenant] of tenants.entries()) {
        const id = await t.hook.createBusiness(tenant, drafts[i]!);
        await t.hook.setAccess(tenant, id, email, 'read');
        businesses[i] = { id, name: drafts[i]!.name };
      }
    }
    const a: Side = { name: 'A', host: t.target.baseUrl, business: businesses[0] };
    const b: Side = { name: 'B', host: t.target.otherBaseUrl!, business: businesses[1] };

    await mintAndTry(t, email, t.partner, a, b);
    if (t.target.otherPartner) await mintAndTry(t, email, t.otherPartner, b, a);
    else t.observe('PARTNER-TENANT-NARROWING', "tenant B's key is not configured: only tokens minted at A were tried");
  },
};

async function mintAndTry(t: TestContext, email: string, key: PartnerClient, home: Side, away: Side): Promise<void> {
  const rule = 'PARTNER-TENANT-NARROWING';
  const minted = await key.mint(email);
  if (!is2xx(minted.res) || !minted.access) {
    t.observe(rule, `tenant ${home.name}'s key issued no token for a user of two tenants (${minted.res.status}): allowed when narrowing cannot be guaranteed`);
    t.check(rule, `mint at ${home.name}: no token, or a narrowed one`, true, 'no token, or a token refused elsewhere', 'no token');
    return;
  }
  const token = minted.access.value;
  const atHome = await t.api.search(home.host, token);
  if (home.business) {
    expectListed(t, rule, `token minted at ${home.name}, at ${home.name}'s host: ${home.name}'s business listed`, atHome, home.business, { soft: true });
    if (away.business) expectNotListed(t, rule, `token minted at ${home.name}, at ${home.name}'s host: ${away.name}'s business not listed`, atHome, away.business, { soft: true });
  } else {
    t.soft(rule, `token minted at ${home.name} accepted at ${home.name}'s host`, acceptedBy(t, rule, atHome, `token minted at ${home.name}`), '200 (or 403: the user may read nothing)', String(atHome.status));
  }
  const atAway = await t.api.search(away.host, token);
  t.expectStatus(rule, `token minted at ${home.name} refused at ${away.name}'s host`, atAway, [401, 403], { soft: true });
}
