/**
 * Partner tokens carry the user's own permissions (spec §5 "Identity"): the key has no identity
 * and no admin rights of its own to lend.
 *
 * Assumption (the spec states no default permissions for new users): a user just created through
 * the partner key may read no business, so its minted token lists nothing.
 */
import { sampleBusinesses } from '../../fixtures/businesses.js';
import { describe } from '../../src/harness/context.js';
import type { TestCase } from '../../src/harness/types.js';
import { expectListed, expectNotListed, listingOf } from '../api/support.js';
import { createMember, mintOrStop } from './support.js';

export const userPermissions: TestCase = {
  id: 'partner-key/user-permissions',
  title: 'A token minted for a new user lists nothing: it carries no permissions of the key',
  rules: ['PARTNER-USER-PERMISSIONS'],
  needs: ['partner'],
  async run(t) {
    const minted = await mintOrStop(t, await createMember(t, 'no-access'));
    const res = await t.api.search(t.target.baseUrl, minted.access.value);
    if (res.status === 403) {
      t.observe('PARTNER-USER-PERMISSIONS', 'search answered 403 for a user who may read no business');
      t.check('PARTNER-USER-PERMISSIONS', 'search with the new user’s token lists nothing', true, '200 with no items, or 403', '403');
      return;
    }
    const listing = listingOf(res);
    t.check('PARTNER-USER-PERMISSIONS', 'search with the new user’s token lists nothing', listing !== undefined && listing.ids.length === 0, '200 with no items, or 403', listing ? `${listing.ids.length} items listed` : describe(res));
  },
};

export const userPermissionsGranted: TestCase = {
  id: 'partner-key/user-permissions-granted',
  title: 'A token minted for a user with read access to one business lists exactly that business',
  rules: ['PARTNER-USER-PERMISSIONS'],
  needs: ['partner', 'hook:businesses', 'hook:access'],
  async run(t) {
    const email = await createMember(t, 'one-business');
    const [readable, hidden] = sampleBusinesses(t.parts.runId, t.fc.seed, 2);
    const readableId = await t.hook.createBusiness(t.target.tenant, readable!);
    const hiddenId = await t.hook.createBusiness(t.target.tenant, hidden!);
    await t.hook.setAccess(t.target.tenant, readableId, email, 'read');
    const minted = await mintOrStop(t, email);
    const res = await t.api.search(t.target.baseUrl, minted.access.value);
    expectListed(t, 'PARTNER-USER-PERMISSIONS', 'the business the user may read is listed', res, readableId, { soft: true });
    expectNotListed(t, 'PARTNER-USER-PERMISSIONS', 'a business of the tenant the user may not read is not listed', res, hiddenId, { soft: true });
    const listing = listingOf(res);
    if (listing) {
      const others = listing.ids.filter((id) => id !== readableId);
      t.soft('PARTNER-USER-PERMISSIONS', 'no other business is listed', others.length === 0, `only business ${readableId}`, `${others.length} other item(s) listed`);
    }
  },
};
