/**
 * Tenant binding (spec §5, §7): credentials belong to one tenant; sent to another tenant's host
 * they are refused with 401, in both directions when both keys are configured.
 */
import type { TestContext } from '../../src/harness/context.js';
import type { TestCase } from '../../src/harness/types.js';
import { checkProblem } from './support.js';

export const tenantBinding: TestCase = {
  id: 'partner-key/tenant-binding',
  title: "A tenant's key is refused at another tenant's host",
  rules: ['PARTNER-TENANT-BINDING', 'PARTNER-PROBLEM-DETAILS'],
  needs: ['partner', 'other-tenant'],
  async run(t) {
    // Tenant A's valid key at tenant B's host.
    await refusedEverywhere(t, "tenant A's key at tenant B's host", (method, path, json) => t.partnerAtOther.call(method, path, json === undefined ? {} : { json }));
    // Tenant B's valid key at tenant A's host (needs B's key, which is optional here).
    const other = t.target.otherPartner;
    if (other) {
      const credentials = t.partner.headers(other);
      await refusedEverywhere(t, "tenant B's key at tenant A's host", (method, path, json) => t.partner.call(method, path, { credentials, ...(json === undefined ? {} : { json }) }));
    } else {
      t.observe('PARTNER-TENANT-BINDING', "tenant B's key is not configured (TACK_OTHER_PARTNER_*): only tenant A's key at B's host was tried");
    }
  },
};

type Send = (method: string, path: string, json: unknown) => Promise<import('../../src/harness/http.js').HttpResponse>;

async function refusedEverywhere(t: TestContext, what: string, send: Send): Promise<void> {
  const nobody = t.names.email('binding');
  const calls: [string, string, unknown][] = [
    ['POST', '/api/admin/authentication/token', { username: nobody }],
    ['POST', '/api/admin/users', { email: nobody, ...t.names.person() }],
    ['POST', `/api/admin/users/${encodeURIComponent(nobody)}/reset-password`, undefined],
  ];
  for (const [method, path, json] of calls) {
    const res = await send(method, path, json);
    t.expectStatus('PARTNER-TENANT-BINDING', `${method} ${path.replace(encodeURIComponent(nobody), '{email}')} with ${what}`, res, 401, { soft: true });
    checkProblem(t, res, `${method} ${path.replace(encodeURIComponent(nobody), '{email}')} with ${what}`);
  }
}
