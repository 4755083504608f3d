import { describe, expect, it } from 'vitest';
import type { ObservedRequest } from '../../../../src/checks/observed-request.js';
import { rulesOf } from '../../../../suites/client/index.js';
import { partnerJson } from '../../../../suites/client/judges/partner-json.js';
import { judged, mint, partnerHeaders, partnerRefresh, run, scenario, search } from '../../../helpers/client-evidence.js';

const verdicts = (...requests: ObservedRequest[]) => judged(partnerJson, scenario('happy-path', 'partner-key', [run(1, requests)]));

describe('CLIENT-PARTNER-JSON', () => {
  it('is judged for a partner client only', () => {
    expect(rulesOf('partner-key', 'happy-path')).toContain('CLIENT-PARTNER-JSON');
    expect(rulesOf('personal-token', 'happy-path')).not.toContain('CLIENT-PARTNER-JSON');
  });

  it('a JSON mint naming the user passes, pointing at it; a search is not judged', () => {
    const calls = [mint(1, 'at_1'), search(1, 'at_1')];
    const { checks } = verdicts(...calls);
    expect(checks.map((c) => [c.ok, c.seqs])).toEqual([
      [true, [calls[0]!.seq]],
      [true, [calls[0]!.seq]],
    ]);
    expect(checks[1]!.expected).toBe('username: the user to act for');
  });

  it('a mint form-encoded, or naming another user, fails that check', () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded', ...partnerHeaders };
    expect(verdicts(mint(1, 'at_1', { headers: form, body: 'username=a%40x' })).oks).toEqual(['failed', 'failed']);
    expect(verdicts(mint(1, 'at_1', { body: JSON.stringify({ username: 'b@x' }) })).oks).toEqual(['ok', 'failed']);
  });

  it('a refresh sends the partner refresh token of the last mint or refresh, as JSON', () => {
    const calls = [mint(1, 'at_1'), partnerRefresh(1, 'tprt_at_1', 'at_2'), partnerRefresh(1, 'tprt_at_2', 'at_3')];
    const { checks } = verdicts(...calls);
    expect(checks.map((c) => [c.ok, c.seqs])).toEqual([
      [true, [calls[0]!.seq]],
      [true, [calls[0]!.seq]],
      [true, [calls[1]!.seq]],
      [true, [calls[0]!.seq, calls[1]!.seq]],
      [true, [calls[2]!.seq]],
      [true, [calls[1]!.seq, calls[2]!.seq]],
    ]);
    expect(checks[3]!.expected).toBe(`refreshToken: the newest partner refresh token (from #${calls[0]!.seq})`);
  });

  it('a refresh with an older partner refresh token, or not as JSON, fails', () => {
    expect(verdicts(mint(1, 'at_1'), mint(1, 'at_2'), partnerRefresh(1, 'tprt_at_1', 'at_3')).oks.slice(4)).toEqual(['ok', 'failed']);
    const form = partnerRefresh(1, 'tprt_at_1', 'at_2', { headers: { 'content-type': 'text/plain', ...partnerHeaders } });
    expect(verdicts(mint(1, 'at_1'), form).oks.slice(2)).toEqual(['failed', 'ok']);
  });

  it('only a mint or refresh answered with a partner refresh token makes it the newest', () => {
    const searchAnswered = search(1, 'at_1', 200, { answer: { refreshToken: 'tprt_from_search' } });
    expect(verdicts(mint(1, 'at_1'), searchAnswered, partnerRefresh(1, 'tprt_at_1', 'at_2')).oks).toEqual(['ok', 'ok', 'ok', 'ok']);
    const refusedMint = mint(1, 'at_1', { status: 401, answer: { error: 'unauthorized' } });
    expect(verdicts(refusedMint, partnerRefresh(1, 'anything', 'at_2')).oks).toEqual(['ok', 'ok', 'ok']);
  });
});
