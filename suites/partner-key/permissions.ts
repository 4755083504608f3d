/**
 * Partner tokens carry the user's own permissions (spec §5 "Identity"): the key has no identity
 * and no admin rights of its own to lend. Judged on permissions tack knows, never on an assumed
 * default (the spec states none for new users):
 *
 * - with the hook's businesses and access: a new user who may read one new business and not
 *   another; the minted token lists the first and not the second;
 * - without them: TACK_USER_EMAIL's own personal token (from the token file, or generated through
 *   the token page) and a partner-minted token for the same user list the same businesses;
 * - otherwise the rule is not checked.
 */
import { sampleBusinesses } from '../../fixtures/businesses.js';
import { finding } from '../../src/checks/finding.js';
import type { TestContext } from '../../src/runner/test-context.js';
import type { TestCase } from '../../src/runner/test-case.js';
import { expectListed, expectNotListed } from '../../src/steps/listing.js';
import { searchPages } from '../../src/steps/paging.js';
import { listsSomething } from '../../src/checks/search.js';
import { accessTokenOf } from '../../src/steps/token-exchange.js';
import { createMember, mintOrStop } from '../../src/steps/members.js';
import type { TestPart } from '../../src/runner/needs.js';

const WHAT_IT_LISTS: TestPart = { rule: 'PARTNER-USER-PERMISSIONS', title: 'what a minted token lists', needs: ['known-reads'] };

export const userPermissions: TestCase = {
  id: 'partner-key/user-permissions',
  title: 'A minted token lists what its user may read, and nothing the user may not',
  rules: ['PARTNER-USER-PERMISSIONS'],
  needs: ['partner'],
  parts: [WHAT_IT_LISTS],
  async run(t) {
    if (!t.can(WHAT_IT_LISTS)) return;
    return t.readers.canGrant ? granted(t) : sameAsOwnToken(t);
  },
};

async function granted(t: TestContext): Promise<void> {
  const email = await createMember(t, 'one-business');
  const [readable, hidden] = sampleBusinesses(t.parts.runId, t.fc.seed, 2);
  const readableId = await t.hook.createBusiness(t.target.tenant, readable!);
  const hiddenId = await t.hook.createBusiness(t.target.tenant, hidden!);
  await t.hook.setAccess(t.target.tenant, readableId, email, 'read');
  // Explicitly none: what access a new user has by default, neither the spec nor the hook says.
  await t.hook.setAccess(t.target.tenant, hiddenId, email, 'none');
  const minted = await mintOrStop(t, email);
  const pages = await searchPages(t, t.target.baseUrl, minted.access.value);
  expectListed(t, 'PARTNER-USER-PERMISSIONS', 'the business the user may read is listed', pages, { id: readableId }, { soft: true });
  expectNotListed(t, 'PARTNER-USER-PERMISSIONS', 'a business of the tenant the user may not read is not listed', pages, { id: hiddenId }, { soft: true });
  const others = pages.items.filter((i) => i.id !== readableId).length;
  // Businesses tack did not set access to may be readable by default: observed, not judged.
  if (others > 0) t.observe('PARTNER-USER-PERMISSIONS', `besides the business granted, ${others} other item(s) were listed for a new user`);
}

async function sameAsOwnToken(t: TestContext): Promise<void> {
  const reader = await t.tokens.reader();
  const own = await searchPages(t, t.target.baseUrl, await accessTokenOf(reader!.chain));
  const minted = await mintOrStop(t, reader!.chain.email);
  const partner = await searchPages(t, t.target.baseUrl, minted.access.value);
  const title = "a token minted for TACK_USER_EMAIL lists the same businesses as the user's own personal token";
  // TACK_USER_EMAIL reads at least one business: a minted token that lists none carries other permissions.
  t.check('PARTNER-USER-PERMISSIONS', 'a token minted for TACK_USER_EMAIL lists businesses', listsSomething(partner));
  if (!own.complete || !partner.complete) {
    t.unverified('PARTNER-USER-PERMISSIONS', title, `not every page could be read: ${own.incomplete ?? partner.incomplete}`);
    return;
  }
  const ownIds = new Set(own.items.map((i) => i.id));
  if (ownIds.size === 0) throw new Error("TACK_USER_EMAIL's own token lists no business (precondition: that user must read at least one)");
  const partnerIds = new Set(partner.items.map((i) => i.id));
  const extra = [...partnerIds].filter((id) => !ownIds.has(id)).length;
  const missing = [...ownIds].filter((id) => !partnerIds.has(id)).length;
  t.check(
    'PARTNER-USER-PERMISSIONS',
    title,
    finding(
      extra === 0 && missing === 0,
      `the same ${ownIds.size} businesses`,
      `${partnerIds.size} businesses: ${extra} the user's own token does not list, ${missing} missing`,
    ),
  );
}
