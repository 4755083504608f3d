/**
 * The client judges on evidence made by hand (no server, no process): a rule nothing exercised is
 * skipped with its reason, never passed; a client that did nothing gets errors, not verdicts; a
 * failure seen before a run was stopped still fails; a renewal near expiry is allowed; the newest
 * API token is followed across runs.
 */
import { describe, expect, it } from 'vitest';
import type { ObservedRun, Profile, ScenarioEvidence, ScenarioSettings } from '../../../suites/client/evidence.js';
import { judgeClient, type PlayedScenario } from '../../../suites/client/index.js';
import { SCENARIOS, type ScenarioId } from '../../../suites/client/scenarios.js';
import type { ObservedRequest } from '../../../src/checks/observed-request.js';

const IDENTITY = '/realms/payroll';
let seq = 0;
let clock = 1_000_000;

const FIRST = 'tpat_initial_token_000';

function settings(profile: Profile): ScenarioSettings {
  const common = { profile, clientId: 'payroll-portal', identityPath: IDENTITY };
  if (profile === 'personal-token') return { ...common, apiToken: FIRST, partner: undefined, userEmail: undefined };
  return { ...common, apiToken: undefined, partner: { clientId: 'acme-partner', secret: 'partner-secret-000000', headers: ['K1', 'K2'] }, userEmail: 'a@x' };
}

type Parts = Partial<ObservedRequest> & { status?: number; answer?: unknown; after?: number };

function req(run: number, role: ObservedRequest['role'], method: string, target: string, parts: Parts = {}): ObservedRequest {
  clock += parts.after ?? 10;
  const response = { status: parts.status ?? 200, headers: {}, body: parts.answer === undefined ? '' : JSON.stringify(parts.answer), at: clock + 1 };
  return { seq: ++seq, run, role, method, target, headers: parts.headers ?? {}, body: parts.body, at: clock, response };
}

const exchange = (run: number, sent: string, issued: { access: string; refresh: string }, after?: number) =>
  req(run, 'identity', 'POST', `${IDENTITY}/protocol/openid-connect/token`, {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', client_id: 'payroll-portal', refresh_token: sent }).toString(),
    answer: { access_token: issued.access, refresh_token: issued.refresh, expires_in: 300, token_type: 'Bearer' },
    ...(after !== undefined ? { after } : {}),
  });
const mint = (run: number, access: string) =>
  req(run, 'tenant', 'POST', '/api/admin/authentication/token', {
    headers: { 'content-type': 'application/json', k1: 'acme-partner', k2: 'partner-secret-000000' },
    body: '{"username":"a@x"}',
    answer: { accessToken: access, refreshToken: `tprt_${access}` },
  });
const searchWith = (run: number, access: string, status = 200) =>
  req(run, 'tenant', 'GET', '/api/businesses/search', { headers: { authorization: `Bearer ${access}` }, status, answer: { items: [], totalCount: 0 } });

function run(index: number, requests: ObservedRequest[], end: ObservedRun['end'] = 'exited', exitCode: number | null = 0): ObservedRun {
  const output = { stdout: '', stderr: '', outputTruncated: false };
  return {
    index,
    end,
    exitCode,
    signal: null,
    startProblem: undefined,
    ...output,
    startedAt: requests[0]?.at ?? clock,
    durationMs: 100,
    requests,
    tokenFile: undefined,
  };
}

function played(id: ScenarioId, profile: Profile, runs: ObservedRun[]): PlayedScenario {
  const plan = SCENARIOS.find((s) => s.id === id)!;
  const evidence: ScenarioEvidence = { id, settings: settings(profile), runs };
  return { plan, evidence, notPlayed: undefined, limits: { runTimeoutS: 30, maxRequests: 100 }, durationMs: 100 };
}

function verdicts(profile: Profile, scenarios: PlayedScenario[]): Record<string, string> {
  return Object.fromEntries(judgeClient(profile, scenarios, (s) => s).rules.map((r) => [r.id, `${r.status}: ${r.reason}`]));
}

describe('client judges', () => {
  it('a partner client that never needed another access token leaves CLIENT-REFRESH-SAME-HOST skipped, with the reason', () => {
    const v = verdicts('partner-key', [played('happy-path', 'partner-key', [run(1, [mint(1, 'at_a1'), searchWith(1, 'at_a1')])])]);
    expect(v['CLIENT-REFRESH-SAME-HOST']).toMatch(/^skipped: the client held a partner refresh token but never needed another access token/);
    expect(v['CLIENT-REUSE-ACCESS-TOKEN']).toMatch(/^skipped: no run made two API calls/);
    expect(v['CLIENT-BEARER']).toMatch(/^passed/);
    expect(v['CLIENT-RETRY-ONCE-ON-401']).toMatch(/^skipped/);
  });

  it('a scenario whose run sent nothing gives errors, not verdicts', () => {
    const v = verdicts('personal-token', [played('happy-path', 'personal-token', [run(1, [], 'exited', 0)])]);
    expect(v['CLIENT-EXIT-STATUS']).toBe('error: client/happy-path: run 1 sent no request and exited with 0: the client did nothing');
    expect(Object.values(v).every((text) => text.startsWith('error') || text.startsWith('skipped'))).toBe(true);
  });

  it('what a run did before it was stopped is judged: a failure wins over the error', () => {
    const loop = [
      exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }),
      searchWith(1, 'at_1', 403),
      exchange(1, 'tpat_r1', { access: 'at_2', refresh: 'tpat_r2' }),
      searchWith(1, 'at_2', 403),
    ];
    const v = verdicts('personal-token', [played('forbidden', 'personal-token', [run(1, loop, 'timed-out', null)])]);
    expect(v['CLIENT-NO-403-LOOP']).toMatch(/^failed: forbidden: after a 403/);
    expect(v['CLIENT-EXCHANGE-FORM']).toMatch(/^error: client\/forbidden: run 1 did not finish within 30 s/);
  });

  it('a renewal when the access token is near expiry is not held against reuse; one while it is fresh is', () => {
    const reuse = (requests: ObservedRequest[]) =>
      verdicts('personal-token', [played('several-calls', 'personal-token', [run(1, requests)])])['CLIENT-REUSE-ACCESS-TOKEN'];
    const near = [exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }), searchWith(1, 'at_1')];
    near.push(exchange(1, 'tpat_r1', { access: 'at_2', refresh: 'tpat_r2' }, 250_000), searchWith(1, 'at_2'));
    expect(reuse(near)).toMatch(/^skipped/);
    const fresh = [exchange(1, FIRST, { access: 'at_3', refresh: 'tpat_r3' }), searchWith(1, 'at_3')];
    fresh.push(exchange(1, 'tpat_r3', { access: 'at_4', refresh: 'tpat_r4' }), searchWith(1, 'at_4'));
    expect(reuse(fresh)).toMatch(/^warning/);
  });

  it('follows the newest API token across runs', () => {
    const stores = (runs: ObservedRun[]) => verdicts('personal-token', [played('two-runs', 'personal-token', runs)])['CLIENT-STORES-ROTATED-TOKEN'];
    const good = [
      run(1, [exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }), searchWith(1, 'at_1')]),
      run(2, [exchange(2, 'tpat_r1', { access: 'at_2', refresh: 'tpat_r2' }), searchWith(2, 'at_2')]),
    ];
    // The first exchange reads the token file: only the one after a rotation shows storing.
    expect(stores(good)).toBe('passed: 1 check passed');
    const stale = [
      run(1, [exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r5' }), searchWith(1, 'at_1')]),
      run(2, [exchange(2, FIRST, { access: 'at_2', refresh: 'tpat_r6' })]),
    ];
    expect(stores(stale)).toMatch(/^failed: two-runs: exchange in run 2 sends the newest API token/);
  });

  it('a partner client that mints again after a 401 instead of refreshing holds CLIENT-REFRESH-SAME-HOST: it had the chance', () => {
    const requests = [mint(1, 'at_b1'), searchWith(1, 'at_b1', 401), mint(1, 'at_b2'), searchWith(1, 'at_b2')];
    const v = verdicts('partner-key', [played('api-401-once', 'partner-key', [run(1, requests)])]);
    expect(v['CLIENT-REFRESH-SAME-HOST']).toBe('passed: 1 check passed');
    expect(v['CLIENT-RETRY-ONCE-ON-401']).toMatch(/^passed/);
  });

  it('a renewal refused with invalid_grant after the 401 leaves CLIENT-RETRY-ONCE-ON-401 not checked (skipped), not failed', () => {
    const requests = [exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }), searchWith(1, 'at_1', 401)];
    requests.push(
      req(1, 'identity', 'POST', `${IDENTITY}/protocol/openid-connect/token`, {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', client_id: 'payroll-portal', refresh_token: 'tpat_r1' }).toString(),
        status: 400,
        answer: { error: 'invalid_grant' },
      }),
    );
    const v = verdicts('personal-token', [played('api-401-once', 'personal-token', [run(1, requests, 'exited', 1)])]);
    expect(v['CLIENT-RETRY-ONCE-ON-401']).toMatch(/^skipped: not checked: .*refused with invalid_grant.*rightly stopped/);
    expect(v['CLIENT-EXIT-STATUS']).toMatch(/^passed/);
  });

  it('success is the search, not the last call: an optional 404 after a successful search, exit 0, passes', () => {
    const requests = [exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }), searchWith(1, 'at_1')];
    requests.push(req(1, 'tenant', 'GET', '/api/businesses/42/logo', { headers: { authorization: 'Bearer at_1' }, status: 404 }));
    const v = verdicts('personal-token', [played('happy-path', 'personal-token', [run(1, requests, 'exited', 0)])]);
    expect(v['CLIENT-EXIT-STATUS']).toMatch(/^skipped/);
    expect(v['CLIENT-COMPLETES-WORK']).toMatch(/^passed/);
  });

  it('a run in a healthy scenario that gives up before its search fails CLIENT-COMPLETES-WORK with its output; never passes another rule', () => {
    const discovery = req(1, 'identity', 'GET', `${IDENTITY}/.well-known/openid-configuration`, { answer: { issuer: 'http://127.0.0.1:1/realms/payroll' } });
    const gaveUp = { ...run(1, [discovery], 'exited', 1), stderr: 'Error: unexpected issuer\n' };
    const v = verdicts('personal-token', [played('happy-path', 'personal-token', [gaveUp])]);
    expect(v['CLIENT-COMPLETES-WORK']).toMatch(/^failed: happy-path: run 1 completes its business search: .*exit 1 after 1 request.*unexpected issuer/);
    const others = Object.entries(v).filter(([id]) => id !== 'CLIENT-COMPLETES-WORK');
    expect(others.filter(([, text]) => !text.startsWith('skipped'))).toEqual([]);
    expect(v['CLIENT-BEARER']).toMatch(/gave up before their work: happy-path run 1: exit 1 after 1 request/);
  });

  it('a run cut off at --max-requests keeps its real failure first, the rest unverified', () => {
    const loop = [exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }), searchWith(1, 'at_1', 403)];
    loop.push(exchange(1, 'tpat_r1', { access: 'at_2', refresh: 'tpat_r2' }), searchWith(1, 'at_2', 403));
    const v = verdicts('personal-token', [played('forbidden', 'personal-token', [run(1, loop, 'cut-off', null)])]);
    expect(v['CLIENT-NO-403-LOOP']).toMatch(/^failed/);
    expect(v['CLIENT-EXCHANGE-FORM']).toMatch(/^skipped: partly checked .*not checked: .*cut off \(--max-requests\)/);
    expect(v['CLIENT-COMPLETES-WORK']).toMatch(/^skipped: .*cut off \(--max-requests\)/);
  });

  it('a client that revokes its stored token at the end of a run fails CLIENT-KEEPS-API-TOKEN', () => {
    const revoke = req(1, 'identity', 'POST', `${IDENTITY}/protocol/openid-connect/revoke`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: 'payroll-portal', token: 'tpat_r1' }).toString(),
    });
    const requests = [exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }), searchWith(1, 'at_1'), revoke];
    const v = verdicts('personal-token', [played('happy-path', 'personal-token', [run(1, requests)])]);
    expect(v['CLIENT-KEEPS-API-TOKEN']).toMatch(/^failed: happy-path: run 1 revokes none of its API tokens/);
  });

  it('revoking a token already rotated away, as a clean-up, destroys nothing: CLIENT-KEEPS-API-TOKEN holds', () => {
    const revoke = req(1, 'identity', 'POST', `${IDENTITY}/protocol/openid-connect/revoke`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: 'payroll-portal', token: FIRST }).toString(),
    });
    const requests = [exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }), revoke, searchWith(1, 'at_1')];
    const v = verdicts('personal-token', [played('happy-path', 'personal-token', [run(1, requests)])]);
    expect(v['CLIENT-KEEPS-API-TOKEN']).toMatch(/^passed/);
  });

  it('a token file replaced whole passes CLIENT-TOKEN-FILE-SAFE; one left readable by others, or rewritten in place, warns', () => {
    const safe = (after: { ino: number; mode: number }, content = 'tpat_r1') => {
      const requests = [exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }), searchWith(1, 'at_1')];
      const tokenFile = { before: { ino: 1, mode: 0o600, content: FIRST }, after: { ...after, content } };
      return verdicts('personal-token', [played('happy-path', 'personal-token', [{ ...run(1, requests), tokenFile }])])['CLIENT-TOKEN-FILE-SAFE'];
    };
    expect(safe({ ino: 2, mode: 0o600 })).toBe('passed: 2 checks passed');
    expect(safe({ ino: 2, mode: 0o644 })).toMatch(/^warning: .*readable by its owner only: expected mode 0600 or stricter .*, got mode 0644/);
    expect(safe({ ino: 1, mode: 0o600 })).toMatch(/^warning: .*replaces the token file whole: .*rewritten in place/);
    // Emptied in place after the client copied the token into a store of its own: the file is not its store.
    expect(safe({ ino: 1, mode: 0o644 }, '')).toMatch(/^skipped/);
  });

  // ── A warning explains no missing work; parallel workers judged by time ──

  it('a client that never searches is not certified because a SHOULD warned: a warning never explains a missing search', () => {
    const origin = {
      ...exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://x' },
    };
    const v = verdicts('personal-token', [played('happy-path', 'personal-token', [{ ...run(1, [origin], 'exited', 1), stderr: 'nothing to do\n' }])]);
    expect(v['CLIENT-NO-ORIGIN']).toMatch(/^warning/);
    expect(v['CLIENT-COMPLETES-WORK']).toMatch(/^failed: happy-path: run 1 completes its business search: .*no business search.*nothing to do/);
  });

  it('CLIENT-COMPLETES-WORK skipped because another MUST failed on every healthy run says so, not that no run ended by itself', () => {
    const stale = [exchange(1, 'tpat_unknown', { access: 'at_1', refresh: 'tpat_r1' })];
    const v = verdicts('personal-token', [played('happy-path', 'personal-token', [run(1, stale, 'exited', 1)])]);
    expect(v['CLIENT-STORES-ROTATED-TOKEN']).toMatch(/^failed/);
    expect(v['CLIENT-COMPLETES-WORK']).toMatch(/^skipped: each run in which the service answered as it should \(happy-path run 1\) failed another MUST rule/);
    const hung = verdicts('personal-token', [played('happy-path', 'personal-token', [run(1, [], 'timed-out', null)])]);
    expect(hung['CLIENT-COMPLETES-WORK']).toMatch(/^error/);
  });

  /** Moves a request's answer to `at` (ms), to make requests overlap as parallel workers' do. */
  const answeredAt = (r: ObservedRequest, at: number): ObservedRequest => ({ ...r, response: { ...r.response!, at } });
  const refused = (run: number, sent: string, after?: number) =>
    req(run, 'identity', 'POST', `${IDENTITY}/protocol/openid-connect/token`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', client_id: 'payroll-portal', refresh_token: sent }).toString(),
      status: 400,
      answer: { error: 'invalid_grant' },
      ...(after !== undefined ? { after } : {}),
    });

  it("two workers: exit non-zero after one worker's invalid_grant while the other's search succeeded at the same time passes CLIENT-EXIT-STATUS", () => {
    const first = exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' });
    const page0 = searchWith(1, 'at_1');
    const win = exchange(1, 'tpat_r1', { access: 'at_2', refresh: 'tpat_r2' });
    // Worker B's exchange arrived before worker A's search and was answered while that search was in flight.
    const lose = refused(1, 'tpat_r1', 1);
    const page1 = searchWith(1, 'at_2', 200);
    const requests = [first, page0, win, answeredAt(lose, page1.at + 5), page1];
    const healthy = played('happy-path', 'personal-token', [run(1, [exchange(1, FIRST, { access: 'at_9', refresh: 'tpat_r9' }), searchWith(1, 'at_9')])]);
    const exit = (code: number) => verdicts('personal-token', [healthy, played('parallel-pages', 'personal-token', [run(1, requests, 'exited', code)])]);
    expect(exit(3)['CLIENT-EXIT-STATUS']).toMatch(/^passed/);
    expect(exit(0)['CLIENT-EXIT-STATUS']).toMatch(/^passed/);
    // The same failure over before the search began is one the client got past: exit 3 then fails.
    const behind = [first, page0, win, lose, searchWith(1, 'at_2', 200)];
    const sequential = verdicts('personal-token', [healthy, played('parallel-pages', 'personal-token', [run(1, behind, 'exited', 3)])]);
    expect(sequential['CLIENT-EXIT-STATUS']).toMatch(/^failed: parallel-pages: run 1 exits as its work ended/);
  });

  it('two workers exchanging the one stored API token at once fail CLIENT-STORES-ROTATED-TOKEN, whichever arrived first', () => {
    const stores = (requests: ObservedRequest[]) =>
      verdicts('personal-token', [played('parallel-pages', 'personal-token', [run(1, requests)])])['CLIENT-STORES-ROTATED-TOKEN'];
    const first = exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' });
    const page0 = searchWith(1, 'at_1');
    // The winner arrived first, the loser while it was in flight.
    const win = exchange(1, 'tpat_r1', { access: 'at_2', refresh: 'tpat_r2' });
    const lose = refused(1, 'tpat_r1', 0);
    expect(stores([first, page0, answeredAt(win, lose.at + 1), lose, searchWith(1, 'at_2')])).toMatch(
      /^failed: parallel-pages: exchange in run 1 is the only exchange of its API token in flight/,
    );
    // The loser arrived first and was overtaken (same millisecond throughout): arrival order alone passed it.
    const early = refused(1, 'tpat_r1');
    const late = exchange(1, 'tpat_r1', { access: 'at_3', refresh: 'tpat_r3' }, 0);
    expect(stores([first, page0, answeredAt(early, late.at), late, searchWith(1, 'at_3')])).toMatch(/^failed: .*only exchange of its API token in flight/);
    // One worker exchanging for both (or one after the other, each storing first) passes.
    const shared = [first, page0, exchange(1, 'tpat_r1', { access: 'at_4', refresh: 'tpat_r4' }), searchWith(1, 'at_4'), searchWith(1, 'at_4')];
    expect(stores(shared)).toBe('passed: 1 check passed');
  });

  it('two workers sending the one dead API token at the same moment hold CLIENT-STOPS-ON-INVALID-GRANT; an exchange sent after the refusal does not', () => {
    const stops = (requests: ObservedRequest[]) =>
      verdicts('personal-token', [played('revoked', 'personal-token', [run(1, requests, 'exited', 3)])])['CLIENT-STOPS-ON-INVALID-GRANT'];
    const a = refused(1, FIRST);
    const b = refused(1, FIRST, 0);
    expect(stops([answeredAt(a, b.at + 1), b])).toMatch(/^passed/);
    expect(stops([refused(1, FIRST), refused(1, FIRST, 5)])).toMatch(/^failed: revoked: run 1: no exchange after invalid_grant/);
  });
});
