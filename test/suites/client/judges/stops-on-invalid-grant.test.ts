import { describe, expect, it } from 'vitest';
import type { ObservedRequest } from '../../../../src/checks/observed-request.js';
import { rulesOf } from '../../../../suites/client/index.js';
import { stopsOnInvalidGrant } from '../../../../suites/client/judges/stops-on-invalid-grant.js';
import { exchange, FIRST, judged, refused, revoke, run, scenario, search } from '../../../helpers/client-evidence.js';

const verdicts = (...requests: ObservedRequest[]) => judged(stopsOnInvalidGrant, scenario('revoked', 'personal-token', [run(1, requests, { exitCode: 3 })]));

describe('CLIENT-STOPS-ON-INVALID-GRANT', () => {
  it('is judged for a personal-token client only', () => {
    expect(rulesOf('personal-token', 'revoked')).toContain('CLIENT-STOPS-ON-INVALID-GRANT');
    expect(rulesOf('partner-key', 'revoked')).not.toContain('CLIENT-STOPS-ON-INVALID-GRANT');
  });

  it('a client that stops at invalid_grant passes, pointing at the refusal; a later API call is no exchange', () => {
    const dead = refused(1, FIRST);
    const { checks } = verdicts(dead, search(1, 'at_0', 401));
    expect(checks.map((c) => [c.ok, c.seqs])).toEqual([[true, [dead.seq]]]);
  });

  it('an exchange after invalid_grant fails, pointing at both', () => {
    const dead = refused(1, FIRST);
    const again = exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' });
    const { checks } = verdicts(dead, again);
    expect(checks.map((c) => [c.ok, c.seqs])).toEqual([[false, [dead.seq, again.seq]]]);
    expect(checks[0]!.expected).toBe('no later exchange');
  });

  it('only an exchange refused with invalid_grant starts it: not another error, not a refused revocation', () => {
    const otherError = exchange(1, FIRST, undefined, { status: 400, answer: { error: 'invalid_request' } });
    expect(verdicts(otherError, exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' })).checks).toEqual([]);
    const revocation = revoke(1, FIRST, { status: 400, answer: { error: 'invalid_grant' } });
    expect(verdicts(revocation, exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' })).checks).toEqual([]);
  });

  it('each run is judged on its own: the next run may exchange again', () => {
    const dead = refused(1, FIRST);
    const runs = [run(1, [dead], { exitCode: 3 }), run(2, [exchange(2, FIRST, { access: 'at_1', refresh: 'tpat_r1' })])];
    const { checks } = judged(stopsOnInvalidGrant, scenario('revoked', 'personal-token', runs));
    expect(checks.map((c) => [c.ok, c.seqs])).toEqual([[true, [dead.seq]]]);
  });
});
