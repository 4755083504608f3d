/**
 * Tenant binding (spec §5, §7): credentials belong to one tenant; sent to another tenant's host
 * they are refused with 401 on every admin call, refresh included, in both directions when both
 * keys are configured. Each call is one a server without the binding would accept (a member of the
 * host's tenant, a live refresh token minted at that host).
 */
import type { TestContext } from '../../src/runner/test-context.js';
import type { PartnerClient } from '../../src/harness/clients/partner.js';
import type { TestCase } from '../../src/runner/test-case.js';
import { status } from '../../src/checks/response.js';
import { adminCalls } from './admin-calls.js';
import { checkProblem } from '../../src/steps/problem-details.js';

export const tenantBinding: TestCase = {
  id: 'partner-key/tenant-binding',
  title: "A tenant's key is refused at another tenant's host, on every admin call",
  rules: ['PARTNER-TENANT-BINDING', 'PARTNER-PROBLEM-DETAILS'],
  needs: ['partner', 'other-tenant'],
  async run(t) {
    const otherKey = t.target.otherPartner ? t.otherPartner : undefined;
    // Tenant A's valid key at tenant B's host (set up with B's key when it is configured).
    await refusedEverywhere(t, "tenant A's key at tenant B's host", t.partnerAtOther, otherKey, t.partner.headers());
    // Tenant B's valid key at tenant A's host (needs B's key, which is optional here).
    if (t.target.otherPartner) {
      await refusedEverywhere(t, "tenant B's key at tenant A's host", t.partner, t.partner, t.partner.headers(t.target.otherPartner));
    } else {
      t.observe('PARTNER-TENANT-BINDING', "tenant B's key is not configured (TACK_OTHER_PARTNER_*): only tenant A's key at B's host was tried");
    }
  },
};

async function refusedEverywhere(
  t: TestContext,
  what: string,
  host: PartnerClient,
  setup: PartnerClient | undefined,
  credentials: Record<string, string>,
): Promise<void> {
  const { calls, refresh, noRefresh } = await adminCalls(t, host, setup, 'binding');
  for (const call of calls) {
    const res = await call.send(credentials);
    t.soft('PARTNER-TENANT-BINDING', `${call.name} with ${what}`, status(res, 401));
    checkProblem(t, res, `${call.name} with ${what}`);
  }
  if (!refresh) {
    t.unverified('PARTNER-TENANT-BINDING', `POST /api/admin/authentication/refresh with ${what}`, noRefresh);
  }
}
