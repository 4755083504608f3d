import { describe, expect, it } from 'vitest';
import type { ObservedRequest } from '../../../../src/checks/observed-request.js';
import { rulesOf } from '../../../../suites/client/index.js';
import { partnerHeaders } from '../../../../suites/client/judges/partner-headers.js';
import { exchange, FIRST, judged, mint, PARTNER, partnerRefresh, run, scenario, search } from '../../../helpers/client-evidence.js';

const verdicts = (requests: ObservedRequest[]) => judged(partnerHeaders, scenario('happy-path', 'partner-key', [run(1, requests)]));

describe('CLIENT-PARTNER-HEADERS', () => {
  it('is judged for a partner client only', () => {
    expect(rulesOf('partner-key', 'happy-path')).toContain('CLIENT-PARTNER-HEADERS');
    expect(rulesOf('personal-token', 'happy-path')).not.toContain('CLIENT-PARTNER-HEADERS');
  });

  it('a mint and a refresh with both headers pass, each check pointing at its call; the search is no admin call', () => {
    const calls = [mint(1, 'at_1'), search(1, 'at_1'), partnerRefresh(1, 'tprt_at_1', 'at_2')];
    const { checks } = verdicts(calls);
    expect(checks.map((c) => [c.ok, c.seqs])).toEqual([
      [true, [calls[0]!.seq]],
      [true, [calls[0]!.seq]],
      [true, [calls[2]!.seq]],
      [true, [calls[2]!.seq]],
    ]);
  });

  it('the client id under the first configured name, the secret under the second: swapped, or missing, fails each', () => {
    const swapped = mint(1, 'at_1', { headers: { 'content-type': 'application/json', k1: PARTNER.secret, k2: PARTNER.clientId } });
    expect(verdicts([swapped]).oks).toEqual(['failed', 'failed']);
    const noSecret = mint(1, 'at_1', { headers: { 'content-type': 'application/json', k1: PARTNER.clientId } });
    expect(verdicts([noSecret]).oks).toEqual(['ok', 'failed']);
  });

  it('a finding names the values by kind and never shows the secret', () => {
    const wrong = mint(1, 'at_1', { headers: { 'content-type': 'application/json', k1: 'other', k2: 'another-secret-0000' } });
    const [id, secret] = verdicts([wrong]).checks;
    expect(id!.expected).toBe('K1: the partner client id');
    expect(secret!.expected).toBe('K2: the partner secret');
    expect(JSON.stringify(verdicts([mint(1, 'at_1')]).checks)).not.toContain(PARTNER.secret);
  });

  it('a scenario without a partner key (a personal-token one) gives no verdict', () => {
    expect(
      judged(partnerHeaders, scenario('happy-path', 'personal-token', [run(1, [exchange(1, FIRST, { access: 'at_1' }), mint(1, 'at_1')])])).checks,
    ).toEqual([]);
  });
});
