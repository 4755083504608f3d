import { describe, expect, it } from 'vitest';
import type { ObservedRequest } from '../../../../src/checks/observed-request.js';
import type { ObservedRun } from '../../../../suites/client/evidence.js';
import { rulesOf } from '../../../../suites/client/index.js';
import { exitStatus } from '../../../../suites/client/judges/exit-status.js';
import { exchange, FIRST, IDENTITY, judged, req, run, scenario, search } from '../../../helpers/client-evidence.js';

const verdicts = (requests: ObservedRequest[], parts: Partial<ObservedRun> = {}) =>
  judged(exitStatus, scenario('happy-path', 'personal-token', [run(2, requests, parts)]));
const renewal = () => exchange(2, FIRST, { access: 'at_1', refresh: 'tpat_r1' });
const logo = (status: number, parts = {}) =>
  req(2, 'tenant', 'GET', '/api/businesses/42/logo', { headers: { authorization: 'Bearer at_1' }, status, ...parts });

describe('CLIENT-EXIT-STATUS', () => {
  it('is judged for both profiles', () => {
    expect(rulesOf('personal-token', 'happy-path')).toContain('CLIENT-EXIT-STATUS');
    expect(rulesOf('partner-key', 'happy-path')).toContain('CLIENT-EXIT-STATUS');
  });

  it('exit 0 after a successful search passes, pointing at the last successful search, on the run; another exit fails', () => {
    const calls = [renewal(), search(2, 'at_1'), search(2, 'at_1'), search(2, 'at_1')];
    const { checks } = verdicts(calls);
    expect(checks.map((c) => [c.ok, c.seqs, c.run, c.expected])).toEqual([
      [true, [calls[3]!.seq], 2, 'exit 0 (its business search succeeded and nothing failed after it)'],
    ]);
    expect(verdicts(calls, { exitCode: 1 }).oks).toEqual(['failed']);
  });

  it('a search that never succeeded wants a non-zero exit, pointing at the searches', () => {
    const calls = [renewal(), search(2, 'at_1', 500), search(2, 'at_1', 503)];
    const { checks } = verdicts(calls, { exitCode: 1 });
    expect(checks.map((c) => [c.ok, c.seqs, c.expected])).toEqual([
      [true, [calls[1]!.seq, calls[2]!.seq], 'a non-zero exit (its business search never succeeded)'],
    ]);
    expect(verdicts(calls).oks).toEqual(['failed']);
  });

  it('a run that reached its work but made no search wants a non-zero exit, pointing at its last request', () => {
    const calls = [renewal(), logo(200), logo(200)];
    const { checks } = verdicts(calls);
    expect(checks.map((c) => [c.ok, c.seqs, c.expected])).toEqual([[false, [calls[2]!.seq], 'a non-zero exit (it made no business search)']]);
    expect(verdicts(calls, { exitCode: 2 }).oks).toEqual(['ok']);
  });

  it('a run that gave up before its work is no evidence: a non-zero exit is not judged, its exit 0 fails', () => {
    const discovery = () => req(2, 'identity', 'GET', `${IDENTITY}/.well-known/openid-configuration`, { answer: {} });
    expect(verdicts([discovery()], { exitCode: 1 }).checks).toEqual([]);
    expect(verdicts([discovery()]).oks).toEqual(['failed']);
  });

  it('runs tack stopped, runs that sent nothing, and runs with neither exit code nor signal are not judged', () => {
    const calls = () => [renewal(), search(2, 'at_1')];
    // tack stops a run with a signal of its own.
    expect(verdicts(calls(), { end: 'timed-out', exitCode: null, signal: 'SIGTERM' }).checks).toEqual([]);
    expect(verdicts(calls(), { end: 'cut-off', exitCode: null, signal: 'SIGKILL' }).checks).toEqual([]);
    expect(verdicts(calls(), { exitCode: null, signal: null }).checks).toEqual([]);
    expect(verdicts([], { exitCode: 0 }).checks).toEqual([]);
  });

  it('a run ended by a signal tack did not send after its work fails', () => {
    expect(verdicts([renewal(), search(2, 'at_1')], { exitCode: null, signal: 'SIGKILL' }).oks).toEqual(['failed']);
  });

  it('a failure after the successful search leaves either exit right; one over before it began does not', () => {
    for (const exitCode of [0, 1]) {
      expect(verdicts([renewal(), search(2, 'at_1'), logo(404)], { exitCode }).checks).toEqual([]);
      expect(verdicts([renewal(), search(2, 'at_1'), logo(400)], { exitCode }).checks).toEqual([]);
      expect(verdicts([renewal(), search(2, 'at_1'), logo(200, { unanswered: true })], { exitCode }).checks).toEqual([]);
    }
    const behind = [exchange(2, FIRST, undefined, { status: 400 }), logo(200, { unanswered: true }), renewal(), logo(399), search(2, 'at_1')];
    expect(verdicts(behind, { exitCode: 1 }).oks).toEqual(['failed']);
  });

  it('a failure in flight together with an earlier successful search (another worker) leaves either exit right', () => {
    const first = search(2, 'at_1', 200, { took: 50 });
    const failed = logo(500, { after: 10, took: 10 });
    const last = search(2, 'at_1', 200, { after: 100 });
    expect(verdicts([renewal(), first, failed, last], { exitCode: 1 }).checks).toEqual([]);
    // The same failure over before the first search began: the client got past it.
    const settled = logo(500, { took: 1 });
    expect(verdicts([renewal(), settled, search(2, 'at_1', 200, { after: 100 }), search(2, 'at_1')], { exitCode: 1 }).oks).toEqual(['failed']);
  });

  it('each run is judged on its own', () => {
    const runs = [run(1, [renewal(), search(1, 'at_1')]), run(2, [renewal(), search(2, 'at_1')], { exitCode: 1 })];
    expect(judged(exitStatus, scenario('two-runs', 'personal-token', runs)).checks.map((c) => [c.ok, c.run])).toEqual([
      [true, 1],
      [false, 2],
    ]);
  });
});
