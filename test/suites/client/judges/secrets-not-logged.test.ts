import { describe, expect, it } from 'vitest';
import type { ObservedRun } from '../../../../suites/client/evidence.js';
import { rulesOf } from '../../../../suites/client/index.js';
import { secretsNotLogged } from '../../../../suites/client/judges/secrets-not-logged.js';
import { exchange, FIRST, IDENTITY, judged, req, run, scenario, search } from '../../../helpers/client-evidence.js';

const worked = (parts: Partial<ObservedRun> = {}) => run(2, [exchange(2, FIRST, { access: 'at_1', refresh: 'tpat_rotated_1' }), search(2, 'at_1')], parts);
const verdicts = (...runs: ObservedRun[]) => judged(secretsNotLogged, scenario('happy-path', 'personal-token', runs));

describe('CLIENT-SECRETS-NOT-LOGGED', () => {
  it('is judged for both profiles', () => {
    expect(rulesOf('personal-token', 'happy-path')).toContain('CLIENT-SECRETS-NOT-LOGGED');
    expect(rulesOf('partner-key', 'happy-path')).toContain('CLIENT-SECRETS-NOT-LOGGED');
  });

  it('a run that worked and logged no secret passes on stdout and on stderr, each on the run', () => {
    const { checks } = verdicts(worked({ stdout: 'found 0 businesses\n', stderr: 'done\n' }));
    expect(checks.map((c) => [c.ok, c.expected, c.seqs, c.run])).toEqual([
      [true, 'no token or secret in the stdout of run 2', [], 2],
      [true, 'no token or secret in the stderr of run 2', [], 2],
    ]);
  });

  it('a token in stdout fails stdout; the rotated API token in stderr fails stderr', () => {
    expect(verdicts(worked({ stdout: `using ${FIRST}\n` })).oks).toEqual(['failed', 'ok']);
    expect(verdicts(worked({ stderr: 'stored tpat_rotated_1\n' })).oks).toEqual(['ok', 'failed']);
  });

  it('a run that gave up before its work is no evidence: nothing passes, but what it leaked still fails', () => {
    const discovery = () => req(1, 'identity', 'GET', `${IDENTITY}/.well-known/openid-configuration`, { answer: {} });
    expect(verdicts(run(1, [discovery()], { exitCode: 1, stderr: 'no issuer\n' })).checks).toEqual([]);
    expect(verdicts(run(1, [discovery()], { exitCode: 1, stderr: `token ${FIRST}\n` })).oks).toEqual(['failed']);
  });

  it('output tack did not keep whole leaves the rule unverified; a run that never started is not judged at all', () => {
    expect(verdicts(worked({ outputTruncated: true })).unverified).toHaveLength(1);
    expect(verdicts(worked()).unverified).toEqual([]);
    const notStarted = run(1, [], { end: 'not-started', exitCode: null, startProblem: 'command not found', outputTruncated: true, stderr: FIRST });
    expect(verdicts(notStarted)).toMatchObject({ checks: [], unverified: [] });
  });
});
