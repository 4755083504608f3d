/** Doctor, section `partner`: each configured partner key is accepted at its tenant's host (src/harness/config-probes.ts). */
import { PartnerClient } from '../harness/clients/partner.js';
import { probePartnerKey } from '../harness/config-probes.js';
import type { HttpClient } from '../harness/http.js';
import type { Redactor } from '../harness/redactor.js';
import type { PartnerKey, TargetConfig } from '../harness/target-config.js';
import type { Say } from './diagnosis.js';

export async function diagnosePartnerKeys(
  target: TargetConfig,
  http: HttpClient,
  redactor: Redactor,
  isDown: (url: string) => boolean,
  say: Say,
): Promise<void> {
  const partnerChecks: [string, string, PartnerKey | undefined, string, string][] = [
    ["tenant A's partner key", target.baseUrl, target.partner, 'TACK_PARTNER_CLIENT_ID', 'TACK_PARTNER_SECRET'],
    ["tenant B's partner key", target.otherBaseUrl ?? '', target.otherPartner, 'TACK_OTHER_PARTNER_CLIENT_ID', 'TACK_OTHER_PARTNER_SECRET'],
  ];
  for (const [what, baseUrl, key, idVar, secretVar] of partnerChecks) {
    if (!key || baseUrl === '') {
      say('skipped', `${what}: not configured (${idVar}, ${secretVar})`);
      continue;
    }
    if (isDown(baseUrl)) {
      say('skipped', `${what}: not tried (${new URL(baseUrl).origin} is not reachable)`);
      continue;
    }
    const partner = await probePartnerKey({ client: new PartnerClient(http, redactor, baseUrl, key, target), what, idVar, secretVar }, target);
    say(partner.status, partner.text);
  }
}
