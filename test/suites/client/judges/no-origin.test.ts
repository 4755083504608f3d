import { describe, expect, it } from 'vitest';
import type { ObservedRequest } from '../../../../src/checks/observed-request.js';
import { rulesOf } from '../../../../suites/client/index.js';
import { noOrigin } from '../../../../suites/client/judges/no-origin.js';
import { exchange, FIRST, FORM, IDENTITY, judged, req, run, scenario, search } from '../../../helpers/client-evidence.js';

const verdicts = (...requests: ObservedRequest[]) => judged(noOrigin, scenario('happy-path', 'personal-token', [run(1, requests)]));
const discovery = (headers: Record<string, string> = {}) =>
  req(1, 'identity', 'GET', `${IDENTITY}/.well-known/openid-configuration`, { headers, answer: { issuer: 'http://127.0.0.1/realms/payroll' } });

describe('CLIENT-NO-ORIGIN', () => {
  it('is judged for a personal-token client only', () => {
    expect(rulesOf('personal-token', 'happy-path')).toContain('CLIENT-NO-ORIGIN');
    expect(rulesOf('partner-key', 'happy-path')).not.toContain('CLIENT-NO-ORIGIN');
  });

  it('every call to the sign-in server of a run that reached its work is judged, each on its own; API calls are not', () => {
    const calls = [
      discovery(),
      exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }),
      search(1, 'at_1', 200, { headers: { authorization: 'Bearer at_1', origin: 'http://x' } }),
    ];
    expect(verdicts(...calls).checks.map((c) => [c.ok, c.seqs])).toEqual([
      [true, [calls[0]!.seq]],
      [true, [calls[1]!.seq]],
    ]);
  });

  it('an exchange with an Origin header fails, pointing at it', () => {
    const sent = exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }, { headers: { 'content-type': FORM, origin: 'http://x' } });
    expect(verdicts(sent, search(1, 'at_1')).checks.map((c) => [c.ok, c.seqs])).toEqual([[false, [sent.seq]]]);
  });

  it('a run that gave up before its work is no evidence: nothing passes, but an Origin it sent still fails', () => {
    expect(verdicts(discovery()).checks).toEqual([]);
    expect(verdicts(discovery({ origin: 'http://x' })).oks).toEqual(['failed']);
  });
});
