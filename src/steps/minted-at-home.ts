/**
 * Narrowing (spec §4.1 rule 1), the step both the partner-key test and the multi-tenant scenario
 * take: a token minted at one tenant for a user of two works at home (judged on data its user
 * reads there) and is refused at the other tenant's host (401 or 403); or no token is issued (a
 * 4xx without a token: conformant when narrowing cannot be guaranteed).
 */
import { refusedWithoutToken } from '../checks/refusal.js';
import { isSuccess, status } from '../checks/response.js';
import type { PartnerClient } from '../harness/clients/partner.js';
import type { Reads } from '../harness/readers.js';
import type { TestContext } from '../runner/test-context.js';
import type { TestPart } from '../runner/needs.js';
import { expectUserData } from './listing.js';
import { tokenInBody } from './members.js';
import { searchPages } from './paging.js';

/** That a minted token works at home is judged on what its user reads there: tack must give the user of two tenants something to read. */
export const WORKS_AT_HOME: TestPart = {
  rule: 'PARTNER-TENANT-NARROWING',
  title: "the token minted at each tenant works at that tenant's host (lists what its user reads there)",
  needs: ['hook:businesses', 'hook:access'],
};

interface Home {
  readonly name: string;
  readonly host: string;
  /** What the user reads at this tenant; undefined when tack cannot grant anything (WORKS_AT_HOME not checked). */
  readonly reads: Reads | undefined;
}

/** Mints at `home` for a user of two tenants; the token must work at home and be refused at `away`. */
export async function mintedOnlyWorksAtHome(
  t: TestContext,
  email: string,
  client: PartnerClient,
  home: Home,
  away: { name: string; host: string },
): Promise<void> {
  const minted = await client.mint(email);
  if (!isSuccess(minted.res) || !minted.access) {
    // §4.1 rule 1: "if that narrowing cannot be guaranteed, the exchange fails (no token is issued)".
    t.check(
      'PARTNER-TENANT-NARROWING',
      `mint at tenant ${home.name} for a user of two tenants, without a token: a refusal`,
      refusedWithoutToken(minted.res, tokenInBody(t, minted.res)),
    );
    t.observe(
      'PARTNER-TENANT-NARROWING',
      `minting at tenant ${home.name} for a user of two tenants issued no token (${minted.res.status}): allowed when narrowing cannot be guaranteed`,
    );
    return;
  }
  const title = `the token minted at tenant ${home.name} works at tenant ${home.name}'s host`;
  if (home.reads) expectUserData(t, 'PARTNER-TENANT-NARROWING', title, await searchPages(t, home.host, minted.access.value), home.reads, { soft: true });
  const elsewhere = await t.api.search(away.host, minted.access.value);
  t.soft('PARTNER-TENANT-NARROWING', `the token minted at tenant ${home.name} is refused at tenant ${away.name}'s host`, status(elsewhere, [401, 403]));
}
