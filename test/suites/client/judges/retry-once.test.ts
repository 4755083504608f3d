import { describe, expect, it } from 'vitest';
import type { ObservedRequest } from '../../../../src/checks/observed-request.js';
import { rulesOf } from '../../../../suites/client/index.js';
import { retryOnce } from '../../../../suites/client/judges/retry-once.js';
import { exchange, FIRST, judged, mint, refused, req, run, scenario, search } from '../../../helpers/client-evidence.js';

const verdicts = (...requests: ObservedRequest[]) => judged(retryOnce, scenario('api-401-once', 'personal-token', [run(1, requests)]));
const seqs = (...requests: ObservedRequest[]) => requests.map((r) => r.seq);
const start = () => [exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }), search(1, 'at_1', 401)] as const;

describe('CLIENT-RETRY-ONCE-ON-401', () => {
  it('is judged in the scenarios that serve a 401, for both profiles', () => {
    for (const id of ['api-401-once', 'api-401-always', 'two-runs', 'parallel-pages'] as const) {
      expect(rulesOf('personal-token', id)).toContain('CLIENT-RETRY-ONCE-ON-401');
      expect(rulesOf('partner-key', id)).toContain('CLIENT-RETRY-ONCE-ON-401');
    }
    expect(rulesOf('personal-token', 'happy-path')).not.toContain('CLIENT-RETRY-ONCE-ON-401');
  });

  it('one new access token, then the same call with it, passes, pointing at the 401, the renewal and the retry', () => {
    const [first, unauthorized] = start();
    const renewal = exchange(1, 'tpat_r1', { access: 'at_2', refresh: 'tpat_r2' });
    const retry = search(1, 'at_2');
    const { checks } = verdicts(first, unauthorized, renewal, retry, exchange(1, 'tpat_r2', { access: 'at_3' }));
    expect(checks.map((c) => [c.ok, c.seqs])).toEqual([
      [true, seqs(unauthorized, renewal, retry)],
      [true, seqs(unauthorized, renewal, retry)],
    ]);
    expect(checks.map((c) => c.expected)).toEqual(['1 new access token', 'GET /api/businesses/search again, with the new access token']);
  });

  it('only a renewal that got an access token counts; failed attempts on the way are shown', () => {
    const [first, unauthorized] = start();
    const failed = exchange(1, 'tpat_r1', undefined, { status: 500 });
    const renewal = exchange(1, 'tpat_r1', { access: 'at_2', refresh: 'tpat_r2' });
    const retry = search(1, 'at_2');
    expect(verdicts(first, unauthorized, failed, renewal, retry).checks.map((c) => [c.ok, c.seqs])).toEqual([
      [true, seqs(unauthorized, failed, renewal, retry)],
      [true, seqs(unauthorized, failed, renewal, retry)],
    ]);
  });

  it('two new access tokens fail the first check; the retry must carry the last one', () => {
    const calls = [...start(), exchange(1, 'tpat_r1', { access: 'at_2', refresh: 'tpat_r2' }), exchange(1, 'tpat_r2', { access: 'at_3', refresh: 'tpat_r3' })];
    expect(verdicts(...calls, search(1, 'at_3')).oks).toEqual(['failed', 'ok']);
    const three = [...calls, exchange(1, 'tpat_r3', { access: 'at_4', refresh: 'tpat_r4' })];
    expect(verdicts(...three, search(1, 'at_4')).oks).toEqual(['failed', 'ok']);
    expect(verdicts(...three, search(1, 'at_3')).oks).toEqual(['failed', 'failed']);
  });

  it('no new access token and the same token again fails both; no retry at all fails the second', () => {
    expect(verdicts(...start(), search(1, 'at_1')).oks).toEqual(['failed', 'failed']);
    const [first, unauthorized] = start();
    const renewal = exchange(1, 'tpat_r1', { access: 'at_2', refresh: 'tpat_r2' });
    expect(verdicts(first, unauthorized, renewal).checks.map((c) => [c.ok, c.seqs])).toEqual([
      [true, seqs(unauthorized, renewal)],
      [false, seqs(unauthorized, renewal)],
    ]);
  });

  it('the 401 of an API call starts it: a 200 before it, or a 401 at the sign-in server, does not', () => {
    const before = [exchange(1, FIRST, undefined, { status: 401 }), exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }), search(1, 'at_1')];
    expect(verdicts(...before).checks).toEqual([]);
    const unauthorized = search(1, 'at_1', 401);
    const renewal = exchange(1, 'tpat_r1', { access: 'at_2', refresh: 'tpat_r2' });
    const retry = search(1, 'at_2');
    expect(verdicts(...before, unauthorized, renewal, retry).checks.map((c) => c.seqs)).toEqual([
      seqs(unauthorized, renewal, retry),
      seqs(unauthorized, renewal, retry),
    ]);
  });

  it('a renewal refused with invalid_grant and nothing renewed leaves the 401 unverified; with a renewal that worked, it is judged', () => {
    const dead = verdicts(...start(), refused(1, 'tpat_r1'));
    expect([dead.checks, dead.unverified.length]).toEqual([[], 1]);
    const judgedToo = verdicts(...start(), refused(1, 'tpat_r1'), exchange(1, 'tpat_r1', { access: 'at_2' }), search(1, 'at_2'));
    expect([judgedToo.oks, judgedToo.unverified]).toEqual([['ok', 'ok'], []]);
    const otherError = verdicts(...start(), exchange(1, 'tpat_r1', undefined, { status: 400, answer: { error: 'invalid_request' } }));
    expect([otherError.oks, otherError.unverified]).toEqual([['failed', 'failed'], []]);
  });

  it('a retry refused with 401 too ends it: nothing more passes, a further call or renewal fails', () => {
    const [first, unauthorized] = start();
    const renewal = exchange(1, 'tpat_r1', { access: 'at_2', refresh: 'tpat_r2' });
    const retry = search(1, 'at_2', 401);
    const { checks } = judged(retryOnce, scenario('api-401-always', 'personal-token', [run(1, [first, unauthorized, renewal, retry], { exitCode: 1 })]));
    expect(checks.map((c) => [c.ok, c.seqs])).toEqual([
      [true, seqs(unauthorized, renewal, retry)],
      [true, seqs(unauthorized, renewal, retry)],
      [true, seqs(retry)],
    ]);
    const more = exchange(1, 'tpat_r2', { access: 'at_3' });
    expect(verdicts(first, unauthorized, renewal, retry, more).checks.at(-1)).toMatchObject({
      ok: false,
      seqs: seqs(retry, more),
      expected: 'no later request',
    });
    expect(verdicts(first, unauthorized, renewal, retry, search(1, 'at_2', 401)).oks).toEqual(['ok', 'ok', 'failed']);
    const discovery = req(1, 'identity', 'GET', '/realms/payroll/.well-known/openid-configuration', { answer: {} });
    expect(verdicts(first, unauthorized, renewal, retry, discovery).oks).toEqual(['ok', 'ok', 'ok']);
  });

  it('a web page read between the 401 and the renewal is not the retry (it was taken for one: a false red)', () => {
    const [first, unauthorized] = start();
    const page = req(1, 'tenant', 'GET', '/account', { status: 302 });
    const renewal = exchange(1, 'tpat_r1', { access: 'at_2', refresh: 'tpat_r2' });
    const retry = search(1, 'at_2');
    expect(verdicts(first, unauthorized, page, renewal, retry).checks.map((c) => [c.ok, c.seqs])).toEqual([
      [true, seqs(unauthorized, renewal, retry)],
      [true, seqs(unauthorized, renewal, retry)],
    ]);
  });

  it("a request answered 404 between the renewal and the retry is not the retry (an adversary's /api/health was taken for one)", () => {
    const [first, unauthorized] = start();
    const renewal = exchange(1, 'tpat_r1', { access: 'at_2', refresh: 'tpat_r2' });
    const probe = req(1, 'tenant', 'GET', '/api/health', { status: 404 });
    const retry = search(1, 'at_2');
    expect(verdicts(first, unauthorized, renewal, probe, retry).checks.map((c) => [c.ok, c.seqs])).toEqual([
      [true, seqs(unauthorized, renewal, retry)],
      [true, seqs(unauthorized, renewal, retry)],
    ]);
  });

  it('a retry that succeeded ends it: later calls and renewals are other rules', () => {
    expect(verdicts(...start(), exchange(1, 'tpat_r1', { access: 'at_2' }), search(1, 'at_2'), search(1, 'at_2', 500)).oks).toEqual(['ok', 'ok']);
  });

  it('a token in the path is not the call: the same path with the new token is the same call', () => {
    const tenant = (token: string, status = 200) =>
      req(1, 'tenant', 'GET', `/api/tokens/${token}/businesses`, { headers: { authorization: `Bearer ${token}` }, status });
    const calls = [mint(1, 'at_b1'), tenant('at_b1', 401), mint(1, 'at_b2'), tenant('at_b2')];
    expect(judged(retryOnce, scenario('api-401-once', 'partner-key', [run(1, calls)])).oks).toEqual(['ok', 'ok']);
  });

  it('each run is judged on its own 401', () => {
    const runs = [
      run(1, [exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }), search(1, 'at_1')]),
      run(2, [
        ...[exchange(2, 'tpat_r1', { access: 'at_2', refresh: 'tpat_r2' }), search(2, 'at_2', 401)],
        exchange(2, 'tpat_r2', { access: 'at_3' }),
        search(2, 'at_3'),
      ]),
    ];
    expect(judged(retryOnce, scenario('two-runs', 'personal-token', runs)).oks).toEqual(['ok', 'ok']);
  });
});
