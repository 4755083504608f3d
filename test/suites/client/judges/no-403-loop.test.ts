import { describe, expect, it } from 'vitest';
import type { ObservedRequest } from '../../../../src/checks/observed-request.js';
import { rulesOf } from '../../../../suites/client/index.js';
import { no403Loop } from '../../../../suites/client/judges/no-403-loop.js';
import { exchange, FIRST, IDENTITY, judged, mint, req, revoke, run, scenario, search } from '../../../helpers/client-evidence.js';

const verdicts = (requests: ObservedRequest[], profile: 'personal-token' | 'partner-key' = 'personal-token') =>
  judged(no403Loop, scenario('forbidden', profile, [run(1, requests)]));

describe('CLIENT-NO-403-LOOP', () => {
  it('is judged in the forbidden scenario only, for both profiles', () => {
    expect(rulesOf('personal-token', 'forbidden')).toContain('CLIENT-NO-403-LOOP');
    expect(rulesOf('partner-key', 'forbidden')).toContain('CLIENT-NO-403-LOOP');
    expect(rulesOf('personal-token', 'happy-path')).not.toContain('CLIENT-NO-403-LOOP');
  });

  it('a client that stops at the 403 passes; what it did before the 403 is not held against it', () => {
    const before = [exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }), search(1, 'at_1')];
    const forbidden = search(1, 'at_1', 403);
    const { checks } = verdicts([...before, forbidden]);
    expect(checks.map((c) => [c.ok, c.seqs])).toEqual([[true, [forbidden.seq]]]);
  });

  it('the same call repeated after the 403 fails, pointing at the 403 and the repeat', () => {
    const renewal = exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' });
    const forbidden = search(1, 'at_1', 403);
    const again = search(1, 'at_1', 403);
    const { checks } = verdicts([renewal, forbidden, again]);
    expect(checks.map((c) => [c.ok, c.seqs])).toEqual([[false, [forbidden.seq, again.seq]]]);
    expect(checks[0]!.expected).toBe('no later request');
  });

  it('a new access token after the 403 fails, an exchange or a mint', () => {
    const forbidden = search(1, 'at_1', 403);
    const renewal = exchange(1, FIRST, { access: 'at_2', refresh: 'tpat_r2' });
    expect(verdicts([forbidden, renewal]).checks.map((c) => [c.ok, c.seqs])).toEqual([[false, [forbidden.seq, renewal.seq]]]);
    const refusedPartner = search(1, 'at_b1', 403);
    expect(verdicts([mint(1, 'at_b1'), refusedPartner, mint(1, 'at_b2')], 'partner-key').oks).toEqual(['failed']);
  });

  it('a call that neither renews nor calls the API after the 403 (discovery, a revocation) is no loop', () => {
    const discovery = req(1, 'identity', 'GET', `${IDENTITY}/.well-known/openid-configuration`, { answer: {} });
    expect(verdicts([search(1, 'at_1', 403), discovery, revoke(1, FIRST)]).oks).toEqual(['ok']);
  });

  it('a request answered 404 after the 403 (no such endpoint) is no repeated call', () => {
    const renewal = exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' });
    const forbidden = search(1, 'at_1', 403);
    const probe = req(1, 'tenant', 'GET', '/api/health', { status: 404 });
    const { checks } = verdicts([renewal, forbidden, probe]);
    expect(checks.map((c) => [c.ok, c.seqs])).toEqual([[true, [forbidden.seq]]]);
  });

  it('the 403 is what starts it: a 401 or a 200 before it is not, and a run without a 403 is not judged', () => {
    const before = [search(1, 'at_1', 401), search(1, 'at_1')];
    const forbidden = search(1, 'at_1', 403);
    expect(verdicts([...before, forbidden]).checks.map((c) => c.seqs)).toEqual([[forbidden.seq]]);
    expect(verdicts([exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }), search(1, 'at_1')]).checks).toEqual([]);
  });

  it('each run is judged on its own 403', () => {
    const first = search(1, 'at_1', 403);
    const second = search(2, 'at_2', 403);
    const again = search(2, 'at_2', 403);
    const { checks } = judged(no403Loop, scenario('forbidden', 'personal-token', [run(1, [first]), run(2, [second, again])]));
    expect(checks.map((c) => [c.ok, c.seqs])).toEqual([
      [true, [first.seq]],
      [false, [second.seq, again.seq]],
    ]);
  });
});
