import { describe, expect, it } from 'vitest';
import type { ObservedRequest } from '../../../../src/checks/observed-request.js';
import { rulesOf } from '../../../../suites/client/index.js';
import { noTokenInUrl } from '../../../../suites/client/judges/no-token-in-url.js';
import { exchange, FIRST, IDENTITY, judged, mint, PARTNER, req, run, scenario, search } from '../../../helpers/client-evidence.js';

const verdicts = (...requests: ObservedRequest[]) => judged(noTokenInUrl, scenario('happy-path', 'personal-token', [run(1, requests)]));
const discovery = (query = '') => req(1, 'identity', 'GET', `${IDENTITY}/.well-known/openid-configuration${query}`, { answer: {} });

describe('CLIENT-NO-TOKEN-IN-URL', () => {
  it('is judged for both profiles', () => {
    expect(rulesOf('personal-token', 'happy-path')).toContain('CLIENT-NO-TOKEN-IN-URL');
    expect(rulesOf('partner-key', 'happy-path')).toContain('CLIENT-NO-TOKEN-IN-URL');
  });

  it('a client that reached its work with clean URLs passes once, on all its URLs, pointing at none', () => {
    const { checks } = verdicts(exchange(1, FIRST, { access: 'at_access_1', refresh: 'tpat_r1' }), search(1, 'at_access_1'));
    expect(checks.map((c) => [c.ok, c.seqs])).toEqual([[true, []]]);
    expect(checks[0]!.expected).toBe('no token or secret in the URLs of its 2 requests');
  });

  it('an access token in a query fails, pointing at that request only; upper-case hex too', () => {
    const renewal = exchange(1, FIRST, { access: 'at_access_1', refresh: 'tpat_r1' });
    const leak = search(1, 'at_access_1', 200, { target: '/api/businesses/search?access_token=at_access_1' });
    expect(verdicts(renewal, leak, search(1, 'at_access_1')).checks.map((c) => [c.ok, c.seqs])).toEqual([[false, [leak.seq]]]);
    const hex = Buffer.from('at_access_2').toString('hex').toUpperCase();
    const renewal2 = exchange(1, FIRST, { access: 'at_access_2', refresh: 'tpat_r2' });
    expect(verdicts(renewal2, search(1, 'at_access_2', 200, { target: `/api/businesses/search?t=${hex}` })).oks).toEqual(['failed']);
  });

  it('the partner secret in a URL fails', () => {
    const leak = mint(1, 'at_b1', { target: `/api/admin/authentication/token?secret=${PARTNER.secret}` });
    expect(judged(noTokenInUrl, scenario('happy-path', 'partner-key', [run(1, [leak])])).oks).toEqual(['failed']);
  });

  it('a scenario no run of which reached its work is no evidence: nothing passes, but the API token in a URL still fails', () => {
    expect(verdicts(discovery()).checks).toEqual([]);
    expect(judged(noTokenInUrl, scenario('happy-path', 'personal-token', [run(1, [])])).checks).toEqual([]);
    expect(verdicts(discovery(`?token=${FIRST}`)).oks).toEqual(['failed']);
  });

  it('one run that reached its work is enough for the scenario to pass, whichever run it was', () => {
    const runs = [run(1, [discovery()]), run(2, [exchange(2, FIRST, { access: 'at_access_1', refresh: 'tpat_r1' })])];
    expect(judged(noTokenInUrl, scenario('two-runs', 'personal-token', runs)).oks).toEqual(['ok']);
  });
});
