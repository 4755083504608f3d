/** The doctor's `partner` section: a key that is not configured, or whose host is down, is skipped with the variables named; no request is sent for it. */
import { describe, expect, it } from 'vitest';
import { diagnosePartnerKeys } from '../../src/doctor/partner-keys.js';
import { Redactor } from '../../src/harness/redactor.js';
import { sayings, stubHttp, targetOf } from './helpers.js';

describe('diagnosePartnerKeys', () => {
  it('skips both keys when none is configured, naming their variables', async () => {
    const { http, sent } = stubHttp(() => ({ status: 200 }));
    const { say, lines } = sayings();
    await diagnosePartnerKeys(targetOf(), http, new Redactor(), () => false, say);
    expect(sent).toEqual([]);
    expect(lines).toEqual([
      ['skipped', "tenant A's partner key: not configured (TACK_PARTNER_CLIENT_ID, TACK_PARTNER_SECRET)"],
      ['skipped', "tenant B's partner key: not configured (TACK_OTHER_PARTNER_CLIENT_ID, TACK_OTHER_PARTNER_SECRET)"],
    ]);
  });

  it('does not try a key whose host is down', async () => {
    const { http, sent } = stubHttp(() => ({ status: 200 }));
    const { say, lines } = sayings();
    const target = targetOf({ TACK_PARTNER_CLIENT_ID: 'p', TACK_PARTNER_SECRET: 's' });
    await diagnosePartnerKeys(target, http, new Redactor(), () => true, say);
    expect(sent).toEqual([]);
    expect(lines[0]).toEqual(['skipped', "tenant A's partner key: not tried (http://acme.localhost:1 is not reachable)"]);
  });

  it("probes a configured key at its tenant's host and says the probe's verdict", async () => {
    const { http, sent } = stubHttp(() => ({ status: 401 }));
    const { say, lines } = sayings();
    const target = targetOf({ TACK_PARTNER_CLIENT_ID: 'p', TACK_PARTNER_SECRET: 's' });
    await diagnosePartnerKeys(target, http, new Redactor(), () => false, say);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((r) => r.url.startsWith('http://acme.localhost:1/'))).toBe(true);
    expect(lines[0]![0]).toBe('problem');
    expect(lines[0]![1]).toMatch(/tenant A's partner key/);
  });
});
