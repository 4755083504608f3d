/**
 * The words every report uses for a run's outcome, from its exit code and rule statuses, so the
 * console, JUnit, Markdown and HTML never disagree.
 */
import { plural } from '../text/plural.js';
import { AREAS, type Area } from '../rules/catalog.js';
import { doesNotHold, type Status, STATUSES } from '../runner/results.js';
import { EXIT } from '../harness/errors.js';
import type { ResultsDocument, ReportRule } from './results-schema.js';

/** The mark of each status, in every report (the console paints it). */
export const STATUS_MARK: Readonly<Record<Status, string>> = {
  passed: '✔',
  failed: '✘',
  warning: '⚠',
  error: '!',
  skipped: '–',
};

/** A run's headline in every report: passed, failed, error or nothing checked, and why. */
interface RunVerdict {
  /** `passed`, `failed`, `error` or `nothing-checked`: also the CSS class of the HTML header. */
  readonly key: 'passed' | 'failed' | 'error' | 'nothing-checked';
  readonly title: string;
  readonly detail: string;
}

export function verdictOf(doc: ResultsDocument): RunVerdict {
  if (doc.run.status === 'interrupted') {
    const unchecked = countStatuses(doc.rules).error;
    const what = doc.rules.length === 0 ? 'nothing was checked' : `${plural(unchecked, 'rule')} could not be checked (errors)`;
    return { key: 'error', title: 'INTERRUPTED', detail: `${doc.error?.message ?? 'the run was stopped'}; ${what}` };
  }
  if (doc.error && doc.rules.length === 0) return { key: 'error', title: `ERROR ${doc.error.code}`, detail: `${doc.error.message}; nothing was checked` };
  const counts = countStatuses(doc.rules);
  // A green run that did not see every MUST rule says so in its title, where a CI reader looks.
  const accepted = doc.baseline?.accepted?.length ?? 0;
  const unchecked =
    doc.run.uncheckedMust > 0
      ? ` (${plural(doc.run.uncheckedMust, 'MUST rule')} not checked${accepted > 0 ? `, ${accepted} accepted in the baseline` : ''})`
      : '';
  const expected = doc.baseline?.expected.length ?? 0;
  const waived = expected > 0 ? `, apart from ${plural(expected, 'expected failure')} in the baseline` : '';
  const warnings = counts.warning > 0 ? `; ${plural(counts.warning, 'SHOULD rule')} not met` : '';
  const failingUnchecked = doc.rules.filter((r) => uncheckedFailing(r, doc)).length;
  switch (doc.run.exitCode) {
    case EXIT.ok:
      return {
        key: 'passed',
        title: `PASSED${unchecked}`,
        detail: `every MUST rule checked holds${waived}${warnings}${unchecked ? uncheckedHint(doc) : ''}`,
      };
    case EXIT.mustFailed: {
      const notMet = doc.baseline ? doc.baseline.newFailures.length : counts.failed + (doc.run.strict ? counts.warning : 0) + failingUnchecked;
      const notChecked = failingUnchecked > 0 ? ` (${plural(failingUnchecked, 'MUST rule')} not checked, --require-all: ${names(doc, uncheckedFailing)})` : '';
      return { key: 'failed', title: 'FAILED', detail: `${plural(notMet, 'rule')} not met${notChecked}${waived}` };
    }
    case EXIT.nothingChecked:
      return { key: 'nothing-checked', title: 'NOTHING CHECKED', detail: 'no rule could be checked: see the skip reasons' };
    default:
      if (counts.error === 0)
        return {
          key: 'error',
          title: 'INCOMPLETE',
          detail:
            doc.baseline?.notes[0] ?? (doc.target.hook?.problem ? `the test hook cannot be used: ${doc.target.hook.problem}` : `exit ${doc.run.exitCode}`),
        };
      return { key: 'error', title: 'INCOMPLETE', detail: `${plural(counts.error, 'rule')} could not be checked (errors)${waived}` };
  }
}

export function countStatuses(rules: readonly ReportRule[]): Record<Status, number> {
  const counts = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<Status, number>;
  for (const r of rules) counts[r.status]++;
  return counts;
}

/** Areas in catalog order, each with its rules; areas with no rule in the run are left out. */
export function byArea(rules: readonly ReportRule[]): { area: Area; label: string; rules: ReportRule[] }[] {
  return (Object.keys(AREAS) as Area[])
    .map((area) => ({ area, label: AREAS[area], rules: rules.filter((r) => r.area === area) }))
    .filter((group) => group.rules.length > 0);
}

/**
 * Rules a reader must look at: failed, warning, error, and, when the run demands every MUST
 * (`--require-all`), every MUST rule it did not check that no baseline entry accepts: each of
 * those fails the run as much as a failed one.
 */
export function notHolding(doc: Pick<ResultsDocument, 'rules' | 'run'>): ReportRule[] {
  return doc.rules.filter((r) => doesNotHold(r.status) || uncheckedFailing(r, doc));
}

/** A MUST rule that was not checked, under `--require-all`, and not accepted by the baseline: it fails the run. */
export function uncheckedFailing(r: ReportRule, doc: Pick<ResultsDocument, 'run'>): boolean {
  return doc.run.requireAll && r.status === 'skipped' && r.level === 'MUST' && r.baseline !== 'accepted';
}

/** How a rule that does not hold is named in a list or an annotation: its status, or "not checked (--require-all)". */
export function notHoldingLabel(r: ReportRule, doc: Pick<ResultsDocument, 'run'>): string {
  return uncheckedFailing(r, doc) ? 'not checked (--require-all)' : r.status;
}

/** What a green run that did not check every MUST rule says about them. */
function uncheckedHint(doc: ResultsDocument): string {
  if (!doc.run.requireAll) return '; run with --require-all to fail on rules that were not checked';
  return '; the baseline accepts every MUST rule that was not checked, each with its reason';
}

/** The ids of the rules `which` picks, at most five, then how many more. */
function names(doc: ResultsDocument, which: (r: ReportRule, doc: ResultsDocument) => boolean): string {
  const ids = doc.rules.filter((r) => which(r, doc)).map((r) => r.id);
  return ids.length > 5 ? `${ids.slice(0, 5).join(', ')} and ${ids.length - 5} more` : ids.join(', ');
}

/**
 * What became of the API tokens tack generated, in words: "tokens generated N, revoked N, left
 * alive 0", then each token left alive and why, and what earlier runs left that this one revoked.
 */
export function tokenLines(doc: ResultsDocument): string[] {
  const t = doc.tokens;
  if (t === undefined) return [];
  const out = [`API tokens generated ${t.generated}, revoked ${t.revoked}, left alive ${t.leftAlive}`];
  for (const a of t.alive) out.push(`left alive: a ${a.origin} token${a.user ? ` of ${a.user}` : ''}: ${a.reason}`);
  if (t.journalKept) out.push('they stay listed in the run journal: the next run against this target revokes them');
  const revoke = doc.rules.find((r) => r.id === 'SIGNIN-REVOKE');
  if (t.revoked > 0 && revoke?.status === 'failed') out.push('SIGNIN-REVOKE failed in this run: the target may keep alive tokens it answered 200 to revoke');
  for (const e of t.earlierRuns) out.push(`revoked ${e.revoked} of the ${e.tokens} token(s) that run ${e.run}, stopped without revoking them, left alive`);
  if (doc.target.mode === 'hookless') out.push("the token file's token is the user's: tack never revokes it");
  return out;
}
