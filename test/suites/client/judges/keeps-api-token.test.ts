import { describe, expect, it } from 'vitest';
import type { ObservedRequest } from '../../../../src/checks/observed-request.js';
import type { ObservedRun } from '../../../../suites/client/evidence.js';
import { rulesOf } from '../../../../suites/client/index.js';
import { keepsApiToken } from '../../../../suites/client/judges/keeps-api-token.js';
import { exchange, FIRST, IDENTITY, judged, refused, req, revoke, run, scenario, search } from '../../../helpers/client-evidence.js';

const verdicts = (runs: ObservedRun[], id = 'two-runs') => judged(keepsApiToken, scenario(id, 'personal-token', runs));
const one = (...requests: ObservedRequest[]) => verdicts([run(1, requests)], 'happy-path');
const seqs = (...requests: ObservedRequest[]) => requests.map((r) => r.seq);
const discovery = (n: number) => req(n, 'identity', 'GET', `${IDENTITY}/.well-known/openid-configuration`, { answer: {} });

describe('CLIENT-KEEPS-API-TOKEN', () => {
  it('is judged for a personal-token client only', () => {
    expect(rulesOf('personal-token', 'two-runs')).toContain('CLIENT-KEEPS-API-TOKEN');
    expect(rulesOf('partner-key', 'two-runs')).not.toContain('CLIENT-KEEPS-API-TOKEN');
  });

  it('a run that exchanged, revoked nothing and ended by itself passes, pointing at its exchanges, on the run', () => {
    const calls = [exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }), search(1, 'at_1')];
    expect(one(...calls).checks.map((c) => [c.ok, c.seqs, c.run, c.expected])).toEqual([[true, seqs(calls[0]!), 1, 'no revocation of its API token']]);
  });

  it('a run that neither exchanged nor revoked, or that tack stopped, gives nothing', () => {
    expect(one(search(1, 'at_1')).checks).toEqual([]);
    expect(verdicts([run(1, [exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' })], { end: 'timed-out', exitCode: null })]).checks).toEqual([]);
  });

  it('revoking the live API token fails, pointing at the revocation, even in a run tack stopped', () => {
    const kill = revoke(1, FIRST);
    expect(verdicts([run(1, [kill], { end: 'timed-out', exitCode: null })]).checks.map((c) => [c.ok, c.seqs])).toEqual([[false, seqs(kill)]]);
    const calls = [exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }), revoke(1, 'tpat_r1')];
    expect(one(...calls).checks.map((c) => [c.ok, c.seqs])).toEqual([[false, seqs(calls[1]!)]]);
  });

  it('revoking a token already dead destroys nothing: refused, rotated away, or another one', () => {
    const dead = refused(1, FIRST);
    expect(one(dead, revoke(1, FIRST)).checks.map((c) => [c.ok, c.seqs])).toEqual([[true, seqs(dead)]]);
    expect(one(exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }), revoke(1, FIRST)).oks).toEqual(['ok']);
    expect(one(exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }), revoke(1, 'tpat_unrelated')).oks).toEqual(['ok']);
    // Another token refused keeps the live one alive; a revocation without a body names nothing.
    expect(one(refused(1, 'tpat_other'), revoke(1, FIRST)).oks).toEqual(['failed']);
    expect(one(exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }), revoke(1, 'x', { body: undefined })).oks).toEqual(['ok']);
  });

  it('a revocation names the token URL-encoded, as the spec writes it, or in its URL: a token with / + = revoked either way fails', () => {
    const issued = (refresh: string) => exchange(1, FIRST, { access: 'at_1', refresh });
    const encoded = 'tpat/r1+x==';
    expect(one(issued(encoded), revoke(1, encoded)).oks).toEqual(['failed']);
    const inUrl = req(1, 'identity', 'POST', `${IDENTITY}/protocol/openid-connect/revoke?token=tpat_r1_in_url`);
    expect(one(issued('tpat_r1_in_url'), inUrl).oks).toEqual(['failed']);
  });

  it('a revocation of a longer value that merely holds the kept token (`<token>.old`) names another token: no false red', () => {
    const issued = exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1_kept' });
    expect(one(issued, revoke(1, 'tpat_r1_kept.old')).oks).toEqual(['ok']);
    const inUrl = req(1, 'identity', 'POST', `${IDENTITY}/protocol/openid-connect/revoke?token=old-tpat_r1_kept`);
    expect(one(issued, inUrl).oks).toEqual(['ok']);
    const inJson = revoke(1, '', { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: 'tpat_r1_kept2' }) });
    expect(one(issued, inJson).oks).toEqual(['ok']);
  });

  it('a revocation names the token as a whole value in any written form: every byte escaped, in any parameter, JSON, base64, multipart', () => {
    const token = 'tpat/r1+kept==';
    const issued = () => exchange(1, FIRST, { access: 'at_1', refresh: token });
    const escaped = [...Buffer.from(token)].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join('');
    expect(one(issued(), revoke(1, '', { body: `token_type_hint=refresh_token&token=${escaped}` })).oks).toEqual(['failed']);
    expect(one(issued(), revoke(1, '', { headers: {}, body: `t=${encodeURIComponent(token)}` })).oks).toEqual(['failed']);
    const inUrl = req(1, 'identity', 'POST', `http://127.0.0.1:1/realms/payroll/protocol/openid-connect/revoke?x=${encodeURIComponent(token)}`);
    expect(one(issued(), inUrl).oks).toEqual(['failed']);
    const unicode = [...token].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const json = revoke(1, '', { headers: { 'content-type': 'application/json' }, body: `{"revoke":{"token":"${unicode}"}}` });
    expect(one(issued(), json).oks).toEqual(['failed']);
    expect(one(issued(), revoke(1, Buffer.from(token).toString('base64'))).oks).toEqual(['failed']);
    const multipart = revoke(1, '', {
      headers: { 'content-type': 'multipart/form-data; boundary=XyZ' },
      body: `--XyZ\r\nContent-Disposition: form-data; name="token"\r\n\r\n${token}\r\n--XyZ--\r\n`,
    });
    expect(one(issued(), multipart).oks).toEqual(['failed']);
  });

  it('in the revoked scenario the token of the file was dead from the start: revoking it destroys nothing', () => {
    expect(verdicts([run(1, [refused(1, FIRST), revoke(1, FIRST)], { exitCode: 3 })], 'revoked').oks).toEqual(['ok']);
    expect(verdicts([run(1, [revoke(1, FIRST)], { exitCode: 3 })], 'happy-path').oks).toEqual(['failed']);
    expect(verdicts([run(1, [revoke(1, FIRST)], { exitCode: 3 })], 'no-such-scenario').oks).toEqual(['failed']);
  });

  it('the token kept after a run still exchanges in the next, pointing at the exchange that returned it', () => {
    const gave = exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' });
    const next = exchange(2, 'tpat_r1', { access: 'at_2', refresh: 'tpat_r2' });
    const { checks } = verdicts([run(1, [gave, search(1, 'at_1')]), run(2, [next, search(2, 'at_2')])]);
    expect(checks.map((c) => [c.ok, c.seqs])).toEqual([
      [true, seqs(gave)],
      [true, seqs(gave, next)],
      [true, seqs(next)],
    ]);
    const dead = refused(2, 'tpat_r1');
    const { checks: refusedChecks } = verdicts([run(1, [gave]), run(2, [dead], { exitCode: 3 })]);
    expect(refusedChecks.map((c) => [c.ok, c.seqs])).toEqual([
      [true, seqs(gave)],
      [false, seqs(gave, dead)],
      [true, seqs(dead)],
    ]);
    expect(refusedChecks[1]!.actual).toMatch(/^invalid_grant: the API token it kept was dead/);
  });

  it('a kept token survives a run whose exchange got no new one, and is judged in the run after', () => {
    const gave = exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' });
    const failed = exchange(2, 'tpat_r1', undefined, { status: 500 });
    const later = exchange(3, 'tpat_r1', { access: 'at_3', refresh: 'tpat_r3' });
    const runs = [run(1, [gave]), run(2, [failed], { exitCode: 1 }), run(3, [later])];
    expect(
      verdicts(runs)
        .checks.filter((c) => c.seqs.length === 2)
        .map((c) => [c.ok, c.seqs]),
    ).toEqual([
      [false, seqs(gave, failed)],
      [true, seqs(gave, later)],
    ]);
  });

  it('an exchange that is not form-encoded names no token: neither the kept one nor a dead one', () => {
    const json = (n: number, status = 200) =>
      req(n, 'identity', 'POST', `${IDENTITY}/protocol/openid-connect/token`, {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refresh_token: FIRST }),
        status,
        answer: status === 200 ? {} : { error: 'invalid_grant' },
      });
    expect(verdicts([run(1, [search(1, 'at_0')]), run(2, [json(2)])]).oks).toEqual(['ok']);
    expect(one(json(1, 400), revoke(1, FIRST)).oks).toEqual(['failed']);
  });

  it('the file token kept by a run that made no exchange is judged on the next run alone; another token sent is not this rule', () => {
    const next = exchange(2, FIRST, { access: 'at_1', refresh: 'tpat_r1' });
    expect(verdicts([run(1, [discovery(1)], { exitCode: 1 }), run(2, [next])]).checks.map((c) => c.seqs)).toEqual([seqs(next), seqs(next)]);
    expect(
      verdicts([run(1, [exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' })]), run(2, [exchange(2, 'tpat_else', { access: 'at_2' })])]).oks,
    ).toEqual(['ok', 'ok']);
  });

  it('a token file left empty or missing fails when the next run has no token to exchange; one still holding a token is no evidence', () => {
    const lost = (after: { ino: number; mode: number; content: string } | null, next: Partial<ObservedRun> = {}, requests = [discovery(2)]) =>
      verdicts([
        run(1, [exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' })], { tokenFile: { before: { ino: 1, mode: 0o600, content: FIRST }, after } }),
        run(2, requests, { exitCode: 1, ...next }),
      ]).checks.slice(1);
    expect(lost({ ino: 2, mode: 0o600, content: '' }).map((c) => [c.ok, c.seqs, c.run])).toEqual([[false, [], 2]]);
    expect(lost(null).map((c) => c.ok)).toEqual([false]);
    expect(lost({ ino: 2, mode: 0o600, content: 'tpat_r1' })).toEqual([]);
    expect(lost({ ino: 2, mode: 0o600, content: '' }, { end: 'timed-out', exitCode: null })).toEqual([]);
    expect(lost({ ino: 2, mode: 0o600, content: '' }, {}, [search(2, 'at_1')])).toEqual([]);
    const unwatched = verdicts([run(1, [exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' })]), run(2, [discovery(2)], { exitCode: 1 })]);
    expect(unwatched.checks.slice(1)).toEqual([]);
  });

  it('a token dead from the start is not kept: its file emptied is no loss', () => {
    const runs = [
      run(1, [refused(1, FIRST)], { exitCode: 3, tokenFile: { before: { ino: 1, mode: 0o600, content: FIRST }, after: { ino: 1, mode: 0o600, content: '' } } }),
      run(2, [discovery(2)], { exitCode: 3 }),
    ];
    expect(verdicts(runs, 'revoked').oks).toEqual(['ok']);
  });
});
