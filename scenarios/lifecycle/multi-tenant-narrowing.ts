/**
 * Multi-tenant narrowing (spec §4.1 rule 1): one person is a user of tenants A and B (made with the
 * hook), with read access to a business in each when the hook can grant it. A token minted with
 * A's key lists A's business at A's host and is refused at B's host; with B's key configured, the
 * same holds the other way round. A target that cannot narrow may refuse to mint at all (a 4xx).
 */
import type { TestCase } from '../../src/runner/test-case.js';
import { mintedOnlyWorksAtHome, WORKS_AT_HOME } from '../../src/steps/minted-at-home.js';

export const multiTenantNarrowing: TestCase = {
  id: 'scenario/multi-tenant-narrowing',
  title: "Multi-tenant narrowing: a user of two tenants gets, from each tenant's key, a token good only at that tenant",
  rules: ['PARTNER-TENANT-NARROWING'],
  needs: ['partner', 'other-tenant', 'hook:users'],
  parts: [WORKS_AT_HOME],
  async run(t) {
    const email = t.names.email('narrowing');
    const [a, b] = [t.target.tenant, t.target.otherTenant!];
    for (const tenant of [a, b]) await t.hook.createUser(tenant, { email, ...t.names.person(), signIn: 'direct' });
    const canGrant = t.can(WORKS_AT_HOME);
    const readsA = canGrant ? await t.readers.grant(a, email) : undefined;
    const readsB = canGrant ? await t.readers.grant(b, email) : undefined;
    const hostA = { name: 'A', host: t.target.baseUrl };
    const hostB = { name: 'B', host: t.target.otherBaseUrl! };
    await mintedOnlyWorksAtHome(t, email, t.partner, { ...hostA, reads: readsA }, hostB);
    if (t.target.otherPartner) await mintedOnlyWorksAtHome(t, email, t.otherPartner, { ...hostB, reads: readsB }, hostA);
    else t.observe('PARTNER-TENANT-NARROWING', "tenant B's key is not configured: only tokens minted at A were tried");
  },
};
