import { describe, expect, it } from 'vitest';
import type { ObservedRequest } from '../../../../src/checks/observed-request.js';
import { rulesOf } from '../../../../suites/client/index.js';
import { bearer } from '../../../../suites/client/judges/bearer.js';
import { exchange, FIRST, judged, mint, req, run, scenario, search } from '../../../helpers/client-evidence.js';

const verdicts = (requests: ObservedRequest[], profile: 'personal-token' | 'partner-key' = 'personal-token') =>
  judged(bearer, scenario('happy-path', profile, [run(1, requests)]));

describe('CLIENT-BEARER', () => {
  it('is judged for both profiles', () => {
    expect(rulesOf('personal-token', 'happy-path')).toContain('CLIENT-BEARER');
    expect(rulesOf('partner-key', 'happy-path')).toContain('CLIENT-BEARER');
  });

  it('an API call with an access token the server issued passes, pointing at the call; the renewal is not judged', () => {
    const calls = [exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }), search(1, 'at_1')];
    expect(verdicts(calls).checks.map((c) => [c.ok, c.seqs])).toEqual([[true, [calls[1]!.seq]]]);
    expect(verdicts([mint(1, 'at_b1'), search(1, 'at_b1')], 'partner-key').oks).toEqual(['ok']);
  });

  it('an API call with a token the server never issued fails, even the API token itself', () => {
    const calls = [exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }), search(1, FIRST)];
    expect(verdicts(calls).checks.map((c) => [c.ok, c.seqs])).toEqual([[false, [calls[1]!.seq]]]);
    const [made] = verdicts([search(1, 'at_made_up')]).checks;
    expect([made!.ok, made!.expected]).toEqual([false, 'Authorization: Bearer with an access token the server issued']);
  });

  it('a web page of the tenant host read without a token is no API call', () => {
    const calls = [exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }), req(1, 'tenant', 'GET', '/account', { status: 302 }), search(1, 'at_1')];
    expect(verdicts(calls).checks.map((c) => [c.ok, c.seqs])).toEqual([[true, [calls[2]!.seq]]]);
  });

  it('a request answered 404 without a token is no API call (there is no such endpoint)', () => {
    const calls = [exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }), req(1, 'tenant', 'GET', '/api/health', { status: 404 }), search(1, 'at_1')];
    expect(verdicts(calls).checks.map((c) => [c.ok, c.seqs])).toEqual([[true, [calls[2]!.seq]]]);
  });

  it('a token issued in another run of the scenario counts as issued', () => {
    const runs = [run(1, [exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' })]), run(2, [search(2, 'at_1')])];
    expect(judged(bearer, scenario('two-runs', 'personal-token', runs)).oks).toEqual(['ok']);
  });
});
