import { describe, expect, it } from 'vitest';
import type { ObservedRequest } from '../../../../src/checks/observed-request.js';
import { rulesOf } from '../../../../suites/client/index.js';
import { storesRotated } from '../../../../suites/client/judges/stores-rotated.js';
import { exchange, FIRST, FORM, judged, refused, req, run, scenario, search, TOKEN_PATH } from '../../../helpers/client-evidence.js';

const verdicts = (...requests: ObservedRequest[]) => judged(storesRotated, scenario('parallel-pages', 'personal-token', [run(1, requests)]));
const seqs = (...requests: ObservedRequest[]) => requests.map((r) => r.seq);

describe('CLIENT-STORES-ROTATED-TOKEN', () => {
  it('is judged for a personal-token client only', () => {
    expect(rulesOf('personal-token', 'two-runs')).toContain('CLIENT-STORES-ROTATED-TOKEN');
    expect(rulesOf('partner-key', 'two-runs')).not.toContain('CLIENT-STORES-ROTATED-TOKEN');
  });

  it('a first exchange of the token file shows reading, not storing: not judged; the next one, with the rotated token, passes', () => {
    const first = exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' });
    const second = exchange(1, 'tpat_r1', { access: 'at_2', refresh: 'tpat_r2' });
    const { checks } = verdicts(first, search(1, 'at_1'), second);
    expect(checks.map((c) => [c.ok, c.seqs, c.expected])).toEqual([[true, seqs(first, second), `the refresh_token exchange #${first.seq} returned`]]);
  });

  it('a first exchange of another token than the file held fails, on it alone; an older token after a rotation fails', () => {
    const stale = exchange(1, 'tpat_unknown', { access: 'at_1', refresh: 'tpat_r1' });
    expect(verdicts(stale).checks.map((c) => [c.ok, c.seqs, c.expected, c.actual])).toEqual([
      [false, seqs(stale), 'the API token of the token file', 'an older or unknown token'],
    ]);
    const first = exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' });
    const older = exchange(1, FIRST, { access: 'at_2', refresh: 'tpat_r2' }, { after: 100 });
    expect(verdicts(first, older).checks.map((c) => [c.ok, c.seqs])).toEqual([[false, seqs(first, older)]]);
  });

  it('only a rotation answered before the exchange arrived is known to it; a refused exchange rotates nothing', () => {
    const first = exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }, { took: 50 });
    const sameTime = exchange(1, 'tpat_r1', { access: 'at_2', refresh: 'tpat_r2' }, { after: 10 });
    expect(verdicts(first, sameTime).oks).toEqual(['failed']);
    const dead = refused(1, FIRST, { after: 100 });
    expect(
      verdicts(exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }), dead, exchange(1, 'tpat_r1', { access: 'at_2', refresh: 'tpat_r2' })).oks,
    ).toEqual(['failed', 'ok']);
  });

  it('only an exchange rotates the API token: a refresh_token in another answer is not the newest', () => {
    const first = exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' });
    const other = search(1, 'at_1', 200, { answer: { refresh_token: 'tpat_from_api' } });
    expect(verdicts(first, other, exchange(1, 'tpat_r1', { access: 'at_2', refresh: 'tpat_r2' })).oks).toEqual(['ok']);
  });

  it('the newest token is the one answered last, not sent last', () => {
    // Two workers exchange the file's token at once; the one answered last rotated it last.
    const slow = exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_slow' }, { took: 30 });
    const quick = exchange(1, FIRST, { access: 'at_2', refresh: 'tpat_quick' }, { after: 5, took: 5 });
    const next = exchange(1, 'tpat_slow', { access: 'at_3', refresh: 'tpat_r3' }, { after: 100 });
    const { checks } = verdicts(slow, quick, next);
    expect(checks.at(-1)).toMatchObject({ ok: true, seqs: seqs(slow, next) });
    expect(verdicts(slow, quick, exchange(1, 'tpat_quick', { access: 'at_4', refresh: 'tpat_r4' }, { after: 100 })).checks.at(-1)).toMatchObject({ ok: false });
  });

  it('of two rotations answered at the same millisecond, the newest token is the one that arrived last', () => {
    const early = exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_early' }, { took: 30 });
    const late = exchange(1, FIRST, { access: 'at_2', refresh: 'tpat_late' }, { after: 20, took: 10 });
    expect(late.response!.at).toBe(early.response!.at);
    expect(verdicts(early, late, exchange(1, 'tpat_late', { access: 'at_3' }, { after: 100 })).checks.at(-1)).toMatchObject({
      ok: true,
      seqs: seqs(late).concat(late.seq + 1),
    });
  });

  it('two exchanges of one token in flight together both fail the race, each pointing at the other first', () => {
    const a = exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_a' }, { took: 30 });
    const b = exchange(1, FIRST, { access: 'at_2', refresh: 'tpat_b' }, { after: 5 });
    expect(verdicts(a, b).checks.map((c) => [c.ok, c.seqs])).toEqual([
      [false, seqs(b, a)],
      [false, seqs(a, b)],
    ]);
    expect(verdicts(a, b).checks[0]!.expected).toBe('no other exchange of the same API token in flight that rotated it');
  });

  it('one exchange of a token in flight with another of a different token is no race', () => {
    const a = exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_a' }, { took: 30 });
    const b = exchange(1, 'tpat_other', { access: 'at_2', refresh: 'tpat_b' }, { after: 5 });
    expect(verdicts(a, b).oks).toEqual(['failed']);
  });

  it('a refused exchange overtaken by a rotation of its token fails, whatever the clock; one never answered shows nothing', () => {
    const first = exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' });
    const loser = refused(1, 'tpat_r1', { after: 20 });
    const winner = exchange(1, 'tpat_r1', { access: 'at_2', refresh: 'tpat_r2' }, { after: 20 });
    expect(verdicts(first, loser, winner).checks.map((c) => [c.ok, c.seqs])).toEqual([
      [true, seqs(first, loser)],
      [false, seqs(winner, loser)],
      [true, seqs(first, winner)],
    ]);
    const lost = exchange(1, 'tpat_r1', undefined, { after: 20, unanswered: true });
    const racer = exchange(1, 'tpat_r1', { access: 'at_2', refresh: 'tpat_r2' }, { after: 1 });
    expect(verdicts(first, lost, racer).oks).toEqual(['ok', 'ok']);
    // Answered, not refused, and settled before the rotation: no race.
    const failedOther = exchange(1, 'tpat_r1', undefined, { after: 20, status: 500 });
    expect(verdicts(first, failedOther, exchange(1, 'tpat_r1', { access: 'at_2', refresh: 'tpat_r2' }, { after: 20 })).oks).toEqual(['ok', 'ok']);
  });

  it('an exchange without a refresh_token, and a scenario without an API token, give nothing to judge', () => {
    const bare = req(1, 'identity', 'POST', TOKEN_PATH, { headers: { 'content-type': FORM }, body: 'grant_type=refresh_token' });
    expect(verdicts(bare).checks).toEqual([]);
    const json = req(1, 'identity', 'POST', TOKEN_PATH, { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refresh_token: 'tpat_x' }) });
    expect(verdicts(json).checks).toEqual([]);
    expect(judged(storesRotated, scenario('two-runs', 'partner-key', [run(1, [exchange(1, 'tpat_x', { access: 'at_1' }), search(1, 'at_1')])])).checks).toEqual(
      [],
    );
  });
});
