/**
 * The words of a run's outcome (src/reporters/outcome-words.ts), from the fixed results document of
 * test/reporters/fixture.ts (one rule of each status: failed, passed, warning, error, skipped MUST):
 * the verdict for each exit code, what --require-all turns into a rule that does not hold, and the
 * token lines.
 */
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/harness/errors.js';
import { countStatuses, notHolding, notHoldingLabel, tokenLines, uncheckedFailing, verdictOf } from '../../src/reporters/outcome-words.js';
import type { ResultsDocument } from '../../src/reporters/results-schema.js';
import { DOC } from './fixture.js';

const withRun = (run: Partial<ResultsDocument['run']>, rest: Partial<ResultsDocument> = {}): ResultsDocument => ({
  ...DOC,
  ...rest,
  run: { ...DOC.run, ...run },
});
const SKIPPED = DOC.rules.find((r) => r.status === 'skipped')!;

describe('verdictOf', () => {
  it.each([
    ['a failed MUST fails', withRun({ exitCode: EXIT.mustFailed }), 'failed', 'FAILED'],
    ['a green run that left a MUST unchecked says so in its title', withRun({ exitCode: EXIT.ok }), 'passed', 'PASSED (1 MUST rule not checked)'],
    ['a green run that checked every MUST has the plain title', withRun({ exitCode: EXIT.ok, uncheckedMust: 0 }), 'passed', 'PASSED'],
    ['nothing checked is its own verdict', withRun({ exitCode: EXIT.nothingChecked }), 'nothing-checked', 'NOTHING CHECKED'],
    ['an error keeps the run incomplete', withRun({ exitCode: EXIT.incomplete }), 'error', 'INCOMPLETE'],
    ['an interrupted run is interrupted whatever its exit code', withRun({ exitCode: EXIT.ok, status: 'interrupted' }), 'error', 'INTERRUPTED'],
  ] as const)('%s', (_name, doc, key, title) => {
    expect(verdictOf(doc)).toMatchObject({ key, title });
  });

  it('a failed run counts the rules not met: failed ones, and warnings only under --strict', () => {
    expect(verdictOf(withRun({ exitCode: EXIT.mustFailed })).detail).toBe('1 rule not met');
    expect(verdictOf(withRun({ exitCode: EXIT.mustFailed, strict: true })).detail).toBe('2 rules not met');
  });

  it('a green run that left a MUST unchecked points to --require-all', () => {
    expect(verdictOf(withRun({ exitCode: EXIT.ok })).detail).toContain('run with --require-all');
  });

  it('an error with no rule names the error code, and says nothing was checked', () => {
    const doc: ResultsDocument = { ...withRun({ exitCode: EXIT.incomplete }), rules: [], error: { code: 'TACK_ERR_CONFIG', message: 'bad env' } };
    expect(verdictOf(doc)).toEqual({ key: 'error', title: 'ERROR TACK_ERR_CONFIG', detail: 'bad env; nothing was checked' });
  });
});

describe('countStatuses', () => {
  it('counts every status, zero for those absent', () => {
    expect(countStatuses(DOC.rules)).toEqual({ passed: 1, failed: 1, warning: 1, error: 1, skipped: 1 });
    expect(countStatuses([])).toEqual({ passed: 0, failed: 0, warning: 0, error: 0, skipped: 0 });
  });
});

describe('--require-all: a MUST not checked does not hold', () => {
  it('without --require-all a skipped MUST is not listed as not holding', () => {
    expect(notHolding(DOC).map((r) => r.status)).toEqual(['failed', 'warning', 'error']);
    expect(uncheckedFailing(SKIPPED, DOC)).toBe(false);
  });

  it('with --require-all it is, labelled as not checked rather than by its status', () => {
    const doc = withRun({ requireAll: true });
    expect(notHolding(doc).map((r) => r.status)).toEqual(['failed', 'warning', 'error', 'skipped']);
    expect(notHoldingLabel(SKIPPED, doc)).toBe('not checked (--require-all)');
    expect(notHoldingLabel(DOC.rules[0]!, doc)).toBe('failed');
  });

  it('a skipped MUST the baseline accepts does not fail --require-all', () => {
    expect(uncheckedFailing({ ...SKIPPED, baseline: 'accepted' }, withRun({ requireAll: true }))).toBe(false);
  });
});

describe('tokenLines', () => {
  it('says nothing when the run generated no token record', () => {
    expect(tokenLines(DOC)).toEqual([]);
  });
});
