import type { TestCase } from '../../src/runner/test-case.js';
import { mintedOnlyWorksAtHome, WORKS_AT_HOME } from '../../src/steps/minted-at-home.js';
import { isSuccess } from '../../src/checks/response.js';
import { createMember } from '../../src/steps/members.js';

export const tenantNarrowing: TestCase = {
  id: 'partner-key/tenant-narrowing',
  title: "A token minted for a user of two tenants works only at the minting tenant's host",
  rules: ['PARTNER-TENANT-NARROWING'],
  needs: ['partner', 'other-partner'],
  parts: [WORKS_AT_HOME],
  async run(t) {
    const email = await createMember(t, 'two-tenants');
    const atB = await t.otherPartner.createUser({ email, ...t.names.person() });
    if (atB.status === 409) {
      // Whether "already exists" (409) is per tenant or global is not stated; a global reading makes
      // a user of two tenants impossible to build with the keys alone. Conformant either way: no
      // verdict here (scenario/multi-tenant-narrowing builds the user through the hook).
      t.observe(
        'PARTNER-TENANT-NARROWING',
        "tenant B's key answered 409 for an e-mail that is a user of tenant A only (users are unique across tenants): " +
          'a user of two tenants cannot be made with the keys alone',
      );
      if (!t.parts.hook?.has('users')) {
        t.unverified(
          'PARTNER-TENANT-NARROWING',
          'a token minted for a user of two tenants',
          'such a user cannot be made with the partner keys on this target: needs the test hook with the users capability (scenario/multi-tenant-narrowing)',
        );
      }
      return;
    }
    if (!isSuccess(atB)) throw new Error(`tenant B's key could not create the same e-mail as a user of tenant B (precondition): ${atB.status}`);
    const reads = t.can(WORKS_AT_HOME)
      ? [await t.readers.grant(t.target.tenant, email), await t.readers.grant(t.target.otherTenant!, email)]
      : [undefined, undefined];
    await mintedOnlyWorksAtHome(t, email, t.partner, { name: 'A', host: t.target.baseUrl, reads: reads[0] }, { name: 'B', host: t.target.otherBaseUrl! });
    await mintedOnlyWorksAtHome(t, email, t.otherPartner, { name: 'B', host: t.target.otherBaseUrl!, reads: reads[1] }, { name: 'A', host: t.target.baseUrl });
  },
};
