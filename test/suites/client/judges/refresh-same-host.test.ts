import { describe, expect, it } from 'vitest';
import type { ObservedRequest } from '../../../../src/checks/observed-request.js';
import { rulesOf } from '../../../../suites/client/index.js';
import { refreshSameHost } from '../../../../suites/client/judges/refresh-same-host.js';
import { IDENTITY, judged, mint, partnerRefresh, req, run, scenario, search } from '../../../helpers/client-evidence.js';

const verdicts = (...requests: ObservedRequest[]) => judged(refreshSameHost, scenario('api-401-once', 'partner-key', [run(1, requests)]));
const seqs = (...requests: ObservedRequest[]) => requests.map((r) => r.seq);

describe('CLIENT-REFRESH-SAME-HOST', () => {
  it('is judged for a partner client only', () => {
    expect(rulesOf('partner-key', 'api-401-once')).toContain('CLIENT-REFRESH-SAME-HOST');
    expect(rulesOf('personal-token', 'api-401-once')).not.toContain('CLIENT-REFRESH-SAME-HOST');
  });

  it('the partner refresh token posted to the refresh endpoint of the tenant host passes both checks, on that request', () => {
    const calls = [mint(1, 'at_1'), search(1, 'at_1', 401), partnerRefresh(1, 'tprt_at_1', 'at_2'), search(1, 'at_2')];
    expect(verdicts(...calls).checks.map((c) => [c.ok, c.seqs])).toEqual([
      [true, seqs(calls[2]!)],
      [true, seqs(calls[2]!)],
    ]);
  });

  it('the token sent to the sign-in server fails the host; sent elsewhere on the tenant host, the endpoint', () => {
    const toSignIn = req(1, 'identity', 'POST', '/api/admin/authentication/refresh', { body: JSON.stringify({ refreshToken: 'tprt_at_1' }) });
    expect(verdicts(mint(1, 'at_1'), toSignIn).oks).toEqual(['failed', 'ok']);
    const inHeader = search(1, 'at_1', 200, { headers: { authorization: 'Bearer at_1', 'x-refresh': 'tprt_at_1' } });
    expect(verdicts(mint(1, 'at_1'), inHeader).oks).toEqual(['ok', 'failed']);
    const inUrl = search(1, 'at_1', 200, { target: '/api/businesses/search?r=tprt_at_1' });
    expect(verdicts(mint(1, 'at_1'), inUrl).oks).toEqual(['ok', 'failed']);
    const toMint = mint(1, 'at_2', { body: JSON.stringify({ username: 'a@x', refreshToken: 'tprt_at_1' }) });
    expect(verdicts(mint(1, 'at_1'), toMint).oks).toEqual(['ok', 'failed']);
    const asGet = req(1, 'tenant', 'GET', '/api/admin/authentication/refresh?refreshToken=tprt_at_1');
    expect(verdicts(mint(1, 'at_1'), asGet).oks).toEqual(['ok', 'failed']);
  });

  it('minting again while holding the token is allowed when the token went nowhere else; after it did, the mint shows it', () => {
    const calls = [mint(1, 'at_1'), search(1, 'at_1', 401), mint(1, 'at_2')];
    expect(verdicts(...calls).checks.map((c) => [c.ok, c.seqs, c.expected])).toEqual([
      [true, seqs(calls[2]!), 'no request with the partner refresh token elsewhere'],
    ]);
    const leak = search(1, 'at_1', 401, { headers: { authorization: 'Bearer tprt_at_1' } });
    const again = mint(1, 'at_2');
    const { checks } = verdicts(mint(1, 'at_1'), leak, again);
    expect(checks.map((c) => [c.ok, c.seqs])).toEqual([
      [true, seqs(leak)],
      [false, seqs(leak)],
      [false, seqs(leak, again)],
    ]);
  });

  it('the token is found in any written form: URL-encoded to the sign-in server, or as Basic credentials', () => {
    const odd = mint(1, 'at_1', { answer: { accessToken: 'at_1', refreshToken: 'tprt/b1+x==' } });
    const encoded = req(1, 'identity', 'POST', `${IDENTITY}/protocol/openid-connect/token`, {
      body: new URLSearchParams({ refresh_token: 'tprt/b1+x==' }).toString(),
    });
    expect(verdicts(odd, encoded, mint(1, 'at_2')).oks).toEqual(['failed', 'failed', 'failed']);
    const basic = search(1, 'at_1', 200, { headers: { authorization: `Basic ${Buffer.from('acme:tprt_at_1').toString('base64')}` } });
    expect(verdicts(mint(1, 'at_1'), basic).oks).toEqual(['ok', 'failed']);
  });

  it('a refresh call as it should be is not misplaced: a later mint passes', () => {
    const calls = [mint(1, 'at_1'), partnerRefresh(1, 'tprt_at_1', 'at_2'), search(1, 'at_2', 401), mint(1, 'at_3')];
    const { checks } = verdicts(...calls);
    expect(checks.map((c) => [c.ok, c.seqs])).toEqual([
      [true, seqs(calls[1]!)],
      [true, seqs(calls[1]!)],
      [true, seqs(calls[3]!)],
    ]);
    expect(checks[0]!.expected).toBe('the tenant host that minted it');
  });

  it('a first mint holds nothing yet: not judged', () => {
    expect(verdicts(mint(1, 'at_1'), search(1, 'at_1')).checks).toEqual([]);
  });

  it('the token is held per run, but known across runs: a later run that sends it is judged, a later run that mints is not', () => {
    const runs = [run(1, [mint(1, 'at_1')]), run(2, [mint(2, 'at_2')]), run(3, [partnerRefresh(3, 'tprt_at_1', 'at_3')])];
    expect(judged(refreshSameHost, scenario('two-runs', 'partner-key', runs)).oks).toEqual(['ok', 'ok']);
  });

  it('a refresh answered with a new partner refresh token issues it too; only the tenant host issues, and only by mint or refresh', () => {
    const refreshed = [mint(1, 'at_1'), partnerRefresh(1, 'tprt_at_1', 'at_2'), search(1, 'at_2', 200, { headers: { 'x-r': 'tprt_at_2' } })];
    expect(verdicts(...refreshed).oks).toEqual(['ok', 'ok', 'ok', 'failed']);
    const notIssued = [
      req(1, 'identity', 'POST', '/api/admin/authentication/token', { answer: { accessToken: 'at_x', refreshToken: 'tprt_signin' } }),
      search(1, 'at_x', 200, { answer: { refreshToken: 'tprt_search' } }),
      search(1, 'at_x', 200, { headers: { 'x-r': 'tprt_signin tprt_search' } }),
    ];
    expect(verdicts(...notIssued).checks).toEqual([]);
  });

  it('a refresh at the tenant host with an absolute-form target (RFC 9112 §3.2.2) is at the refresh endpoint: no false red', () => {
    const absolute = partnerRefresh(1, 'tprt_at_1', 'at_2', { target: 'http://127.0.0.1:4010/api/admin/authentication/refresh' });
    expect(verdicts(mint(1, 'at_1'), absolute).oks).toEqual(['ok', 'ok']);
  });

  it('the token sent to the sign-in server in JSON with every character \\u-escaped is found: no false green', () => {
    const unicode = [...'tprt_at_1'].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const body = `{"grant_type":"refresh_token","refresh_token":"${unicode}"}`;
    const toSignIn = req(1, 'identity', 'POST', `${IDENTITY}/protocol/openid-connect/token`, { headers: { 'content-type': 'application/json' }, body });
    expect(verdicts(mint(1, 'at_1'), toSignIn).oks).toEqual(['failed', 'failed']);
    expect(verdicts(mint(1, 'at_1'), { ...toSignIn, headers: {} }).oks).toEqual(['failed', 'failed']);
  });

  it('the token sent in a body of a call to the sign-in server is found there', () => {
    const body = req(1, 'identity', 'POST', `${IDENTITY}/protocol/openid-connect/token`, { body: 'refresh_token=tprt_at_1' });
    expect(verdicts(mint(1, 'at_1'), body).oks).toEqual(['failed', 'failed']);
  });
});
