import { describe, expect, it } from 'vitest';
import type { ObservedRequest } from '../../../../src/checks/observed-request.js';
import { rulesOf } from '../../../../suites/client/index.js';
import { partnerKeyAdminOnly } from '../../../../suites/client/judges/partner-key-admin-only.js';
import { exchange, FIRST, IDENTITY, judged, mint, PARTNER, partnerHeaders, req, run, scenario, search } from '../../../helpers/client-evidence.js';

const verdicts = (...requests: ObservedRequest[]) => judged(partnerKeyAdminOnly, scenario('happy-path', 'partner-key', [run(1, requests)]));
const discovery = (headers: Record<string, string> = {}) => req(1, 'identity', 'GET', `${IDENTITY}/.well-known/openid-configuration`, { headers, answer: {} });

describe('CLIENT-PARTNER-KEY-ADMIN-ONLY', () => {
  it('is judged for a partner client only', () => {
    expect(rulesOf('partner-key', 'happy-path')).toContain('CLIENT-PARTNER-KEY-ADMIN-ONLY');
    expect(rulesOf('personal-token', 'happy-path')).not.toContain('CLIENT-PARTNER-KEY-ADMIN-ONLY');
  });

  it('every call but the admin calls is judged, each on its own: without the key it passes', () => {
    const calls = [mint(1, 'at_b1'), discovery(), search(1, 'at_b1')];
    expect(verdicts(...calls).checks.map((c) => [c.ok, c.seqs])).toEqual([
      [true, [calls[1]!.seq]],
      [true, [calls[2]!.seq]],
    ]);
  });

  it('a search with the key headers fails; so does the secret as Basic credentials to the sign-in server', () => {
    const keyed = search(1, 'at_b1', 200, { headers: { authorization: 'Bearer at_b1', ...partnerHeaders } });
    expect(verdicts(mint(1, 'at_b1'), keyed).checks.map((c) => [c.ok, c.seqs])).toEqual([[false, [keyed.seq]]]);
    const basic = Buffer.from(`${PARTNER.clientId}:${PARTNER.secret}`).toString('base64');
    const signIn = req(1, 'identity', 'POST', `${IDENTITY}/protocol/openid-connect/token`, {
      headers: { authorization: `Basic ${basic}` },
      body: 'grant_type=client_credentials',
    });
    expect(verdicts(mint(1, 'at_b1'), signIn).oks).toEqual(['failed']);
  });

  it('a run that gave up before its work is no evidence: nothing passes, but a key it sent still fails', () => {
    expect(verdicts(discovery()).checks).toEqual([]);
    expect(verdicts(discovery({ k2: PARTNER.secret })).oks).toEqual(['failed']);
  });

  it('a scenario without a partner key (a personal-token one) gives no verdict', () => {
    const runs = [run(1, [exchange(1, FIRST, { access: 'at_1' }), search(1, 'at_1')])];
    expect(judged(partnerKeyAdminOnly, scenario('happy-path', 'personal-token', runs)).checks).toEqual([]);
  });
});
