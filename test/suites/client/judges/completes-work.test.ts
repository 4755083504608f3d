import { describe, expect, it } from 'vitest';
import type { RuleId } from '../../../../src/rules/catalog.js';
import type { ObservedRun } from '../../../../suites/client/evidence.js';
import { rulesOf } from '../../../../suites/client/index.js';
import { completesWork } from '../../../../suites/client/judges/completes-work.js';
import { exchange, FIRST, IDENTITY, judged, run, scenario, search } from '../../../helpers/client-evidence.js';

const renewal = (n: number) => exchange(n, FIRST, { access: 'at_1', refresh: 'tpat_r1' });
const verdicts = (runs: ObservedRun[], id = 'happy-path', failures: (run: number) => readonly RuleId[] = () => []) =>
  judged(completesWork, scenario(id, 'personal-token', runs), failures);

describe('CLIENT-COMPLETES-WORK', () => {
  it('is judged for both profiles', () => {
    expect(rulesOf('personal-token', 'happy-path')).toContain('CLIENT-COMPLETES-WORK');
    expect(rulesOf('partner-key', 'happy-path')).toContain('CLIENT-COMPLETES-WORK');
  });

  it('a healthy run whose search succeeded passes, pointing at its searches, on the run', () => {
    const calls = [renewal(1), search(1, 'at_1', 500), search(1, 'at_1')];
    const { checks } = verdicts([run(1, calls)]);
    expect(checks.map((c) => [c.ok, c.seqs, c.run, c.actual])).toEqual([[true, [calls[1]!.seq, calls[2]!.seq], 1, 'it did']]);
  });

  it('a healthy run without a successful search fails, saying how it ended, what it sent and how its output ends', () => {
    const calls = [renewal(1), search(1, 'at_1', 500)];
    const { checks } = verdicts([run(1, calls, { exitCode: 1, stdout: 'partial\n', stderr: '  server   error\n' })]);
    expect(checks.map((c) => [c.ok, c.seqs, c.actual])).toEqual([
      [
        false,
        [calls[1]!.seq],
        `exit 1 after 2 requests (#${calls[0]!.seq} POST ${IDENTITY}/protocol/openid-connect/token → 200, ` +
          `#${calls[1]!.seq} GET /api/businesses/search → 500), ` +
          'no business search answered 2xx; its output ends: «server error»',
      ],
    ]);
    const stdoutOnly = verdicts([run(1, [renewal(1)], { exitCode: 1, stdout: 'bye\n' })]).checks[0]!;
    expect(stdoutOnly.actual).toMatch(/, no business search; its output ends: «bye»$/);
    const sent = renewal(1);
    const silent = verdicts([run(1, [sent], { exitCode: 1 })]).checks[0]!;
    expect([silent.ok, silent.seqs, silent.actual]).toEqual([false, [sent.seq], expect.stringMatching(/, no business search, and no output$/)]);
  });

  it('a run whose work another MUST rule explains is left to that rule; a run that did its work is judged all the same', () => {
    const failures = (n: number): RuleId[] => (n === 1 ? ['CLIENT-STORES-ROTATED-TOKEN'] : []);
    expect(verdicts([run(1, [renewal(1)], { exitCode: 1 })], 'happy-path', failures).checks).toEqual([]);
    expect(verdicts([run(1, [renewal(1), search(1, 'at_1')])], 'happy-path', failures).oks).toEqual(['ok']);
    expect(verdicts([run(1, [renewal(1)], { exitCode: 1 })], 'happy-path', (n) => (n === 2 ? ['CLIENT-BEARER'] : [])).oks).toEqual(['failed']);
  });

  it('only the healthy runs of the scenario are judged', () => {
    // api-401-always: run 1 meets a 401 at every call; run 2 is healthy.
    const runs = [run(1, [renewal(1)], { exitCode: 1 }), run(2, [renewal(2)], { exitCode: 1 })];
    expect(verdicts(runs, 'api-401-always').checks.map((c) => c.run)).toEqual([2]);
    expect(verdicts(runs, 'revoked').checks).toEqual([]);
    expect(verdicts(runs, 'no-such-scenario').checks).toEqual([]);
  });

  it('runs tack stopped and runs that sent nothing are not judged here', () => {
    expect(verdicts([run(1, [renewal(1)], { end: 'timed-out', exitCode: null })]).checks).toEqual([]);
    expect(verdicts([run(1, [renewal(1)], { end: 'cut-off', exitCode: null })]).checks).toEqual([]);
    expect(verdicts([run(1, [], { exitCode: 1 })]).checks).toEqual([]);
  });
});
