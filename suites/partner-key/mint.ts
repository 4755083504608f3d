import type { TestCase } from '../../src/runner/test-case.js';
import { expectUserData } from '../../src/steps/listing.js';
import { searchPages } from '../../src/steps/paging.js';
import { finding } from '../../src/checks/finding.js';
import { success } from '../../src/checks/response.js';
import { refusedWithoutToken } from '../../src/checks/refusal.js';
import { createMember, readerMember, tokenInBody } from '../../src/steps/members.js';
import type { TestPart } from '../../src/runner/needs.js';
import { checkProblem } from '../../src/steps/problem-details.js';

const MINTED_WORKS: TestPart = {
  rule: 'PARTNER-MINT',
  title: "the access token works as a Bearer token at the tenant's host: search lists what the user reads",
  needs: ['reader'],
};

export const mintForMember: TestCase = {
  id: 'partner-key/mint',
  title: 'Minting for a member returns an access and a refresh token that work at its host',
  rules: ['PARTNER-MINT'],
  needs: ['partner'],
  parts: [MINTED_WORKS],
  async run(t) {
    const reader = await readerMember(t, 'mint');
    const email = reader?.email ?? (await createMember(t, 'mint'));
    const minted = await t.partner.mint(email);
    t.check('PARTNER-MINT', 'mint for a member answers 2xx', success(minted.res));
    t.soft(
      'PARTNER-MINT',
      'the answer carries an access token',
      finding(minted.access !== undefined, 'an access token (common spellings or TACK_PARTNER_ACCESS_TOKEN_FIELD)', 'none found'),
    );
    t.soft(
      'PARTNER-MINT',
      'the answer carries a refresh token',
      finding(minted.refresh !== undefined, 'a refresh token (common spellings or TACK_PARTNER_REFRESH_TOKEN_FIELD)', 'none found'),
    );
    if (!minted.access) return;
    t.observe('PARTNER-MINT', `access token found in field ${minted.access.field}${minted.refresh ? `, refresh token in ${minted.refresh.field}` : ''}`);
    if (!t.can(MINTED_WORKS)) return;
    expectUserData(t, 'PARTNER-MINT', MINTED_WORKS.title, await searchPages(t, t.target.baseUrl, minted.access.value), reader!.reads);
  },
};

export const mintForNonMember: TestCase = {
  id: 'partner-key/mint-non-member',
  title: 'No token is minted for someone who is not a user of the tenant',
  rules: ['PARTNER-MINT-NON-MEMBER', 'PARTNER-PROBLEM-DETAILS'],
  needs: ['partner'],
  async run(t) {
    // The spec gives no status for this refusal: any 4xx without a token in the body.
    const stranger = await t.partner.mint(t.names.email('stranger'));
    t.soft('PARTNER-MINT-NON-MEMBER', 'mint for an e-mail no tenant knows', refusedWithoutToken(stranger.res, tokenInBody(t, stranger.res)));
    t.observe('PARTNER-MINT-NON-MEMBER', `mint for an e-mail no tenant knows answered ${stranger.res.status} (the spec gives no status)`);
    checkProblem(t, stranger.res, 'mint for an e-mail no tenant knows');

    // A user of tenant B only, made with B's key or the hook.
    const bOnly = await userOfBOnly(t);
    if (bOnly === undefined) {
      const why = "needs tenant B's key (TACK_OTHER_BASE_URL, TACK_OTHER_PARTNER_*) or the hook's users capability";
      t.unverified('PARTNER-MINT-NON-MEMBER', 'mint at tenant A for a user of tenant B only', why);
      return;
    }
    const res = (await t.partner.mint(bOnly)).res;
    t.soft('PARTNER-MINT-NON-MEMBER', 'mint at tenant A for a user of tenant B only', refusedWithoutToken(res, tokenInBody(t, res)));
    checkProblem(t, res, 'mint at tenant A for a user of tenant B only');
  },
};

async function userOfBOnly(t: Parameters<TestCase['run']>[0]): Promise<string | undefined> {
  if (t.target.otherPartner && t.target.otherBaseUrl) return createMember(t, 'b-only', t.otherPartner);
  const hook = t.parts.hook;
  if (t.target.otherTenant && hook?.has('users')) {
    const email = t.names.email('b-only');
    await hook.createUser(t.target.otherTenant, { email, ...t.names.person(), signIn: 'direct' });
    return email;
  }
  return undefined;
}
