import { describe, expect, it } from 'vitest';
import type { ObservedRequest } from '../../../../src/checks/observed-request.js';
import { rulesOf } from '../../../../suites/client/index.js';
import { reuse } from '../../../../suites/client/judges/reuse.js';
import { exchange, FIRST, judged, mint, run, scenario, search } from '../../../helpers/client-evidence.js';

const verdicts = (...requests: ObservedRequest[]) => judged(reuse, scenario('several-calls', 'personal-token', [run(1, requests)]));

describe('CLIENT-REUSE-ACCESS-TOKEN', () => {
  it('is judged for both profiles', () => {
    expect(rulesOf('personal-token', 'several-calls')).toContain('CLIENT-REUSE-ACCESS-TOKEN');
    expect(rulesOf('partner-key', 'several-calls')).toContain('CLIENT-REUSE-ACCESS-TOKEN');
  });

  it('two successful calls with one token pass, pointing at both; renewals before the first and after the second are not between', () => {
    const calls = [
      exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }),
      search(1, 'at_1'),
      search(1, 'at_1'),
      exchange(1, 'tpat_r1', { access: 'at_2' }),
    ];
    expect(verdicts(...calls).checks.map((c) => [c.ok, c.seqs])).toEqual([[true, [calls[1]!.seq, calls[2]!.seq]]]);
  });

  it('a renewal between two calls while the token is fresh warns, pointing at the three', () => {
    const calls = [mint(1, 'at_1'), search(1, 'at_1'), mint(1, 'at_2'), search(1, 'at_2')];
    const { checks } = judged(reuse, scenario('several-calls', 'partner-key', [run(1, calls)]));
    expect(checks.map((c) => [c.ok, c.seqs])).toEqual([[false, [calls[1]!.seq, calls[2]!.seq, calls[3]!.seq]]]);
    expect(checks[0]!.expected).toBe('no renewal');
  });

  it('a renewal after a refused call is not this rule: only a call answered 2xx starts a pair', () => {
    expect(
      verdicts(
        exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }),
        search(1, 'at_1', 401),
        exchange(1, 'tpat_r1', { access: 'at_2' }),
        search(1, 'at_2'),
      ).checks,
    ).toEqual([]);
  });

  it('near expiry is 240 s after the token was issued, to the millisecond', () => {
    // The token is issued 1 ms after its exchange arrived; the next call comes 20 ms + `wait` after the exchange.
    const pair = (wait: number) => [
      exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }),
      search(1, 'at_1'),
      exchange(1, 'tpat_r1', { access: 'at_2', refresh: 'tpat_r2' }),
      search(1, 'at_2', 200, { after: wait }),
    ];
    expect(verdicts(...pair(239_981)).checks).toEqual([]);
    expect(verdicts(...pair(239_980)).oks).toEqual(['failed']);
  });

  it('a call with a token the scenario never issued gets no grace for its age', () => {
    const calls = [
      search(1, 'at_unknown', 200, { after: 10 }),
      exchange(1, FIRST, { access: 'at_2', refresh: 'tpat_r2' }),
      search(1, 'at_2', 200, { after: 300_000 }),
    ];
    expect(verdicts(...calls).oks).toEqual(['failed']);
  });

  it('a call never answered is no success and issued nothing: the pair it starts is not judged', () => {
    const calls = [
      exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }),
      search(1, 'at_1', 200, { unanswered: true }),
      exchange(1, 'tpat_r1', { access: 'at_2' }),
    ];
    expect(verdicts(...calls, search(1, 'at_2')).checks).toEqual([]);
  });

  it('the calls are paired within each run', () => {
    const runs = [run(1, [exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }), search(1, 'at_1')]), run(2, [search(2, 'at_1')])];
    expect(judged(reuse, scenario('two-runs', 'personal-token', runs)).checks).toEqual([]);
  });
});
