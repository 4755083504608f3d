/**
 * From evidence to one verdict per rule. Every test that declares a rule adds to its evidence: the
 * checks it recorded, the parts it could not observe, its observations, and how it ended. The
 * verdict is final only when every test declaring the rule has finished.
 *
 * Precedence: a failed check (failed for a MUST, warning for a SHOULD), then an error (a test that
 * could not finish leaves the rule unproven, even if earlier checks passed), then a part not seen
 * (skipped: "passed" means tack saw everything the rule demands): an unverified part, or a test that
 * stopped at another rule's failure before it had checked all of this one; then passed when checks
 * ran, and skipped with the reasons when no test could run.
 */
import { plural } from '../text/plural.js';
import { getRule, type RuleId } from '../rules/catalog.js';
import type { Unverified } from './test-context.js';
import { mergeReasons } from './selection.js';
import type { UnmetNeed } from './needs.js';
import type { CheckResult, RuleResult, Status } from './results.js';

/**
 * A test that did not check all of a rule because of a failed check on another rule (`stoppedAt`),
 * with that failure: it stopped there before any check on this rule (`unreached`) or after some
 * (`unfinished`), or it went on after that failure without checking this rule at all (`unfinished`:
 * a scenario that returns early after a soft failure, a check that needs an answer it did not get).
 */
export interface Stopped {
  readonly test: string;
  readonly stoppedAt: RuleId;
  readonly before: 'any' | 'the-rest' | 'after-failure';
  readonly reason: string;
}

function stoppedText(s: Stopped): string {
  if (s.before === 'after-failure') return `${s.test} did not check it after a failed check: ${s.reason}`;
  return s.before === 'any' ? `${s.test} stopped before checking it: ${s.reason}` : `the rest of ${s.test}, which stopped before it: ${s.reason}`;
}

export class RuleEvidence {
  readonly checks: CheckResult[] = [];
  readonly observations: string[] = [];
  /** Why the rule could not be checked: the needs unmet of each test that could not run (as data: ./selection.ts merges them), or a reason. */
  readonly skips: (UnmetNeed | string)[] = [];
  readonly errors: string[] = [];
  /** The tests of `errors` (the runner's; absent for tack client's problems): what a baseline's entry names. */
  readonly errorTests: string[] = [];
  /** Stable ids of `skips`, one each (`<test>/needs/<need>`, `<rule>/no-test`). */
  readonly skipIds: string[] = [];
  readonly unverified: Unverified[] = [];
  /** Tests that stopped on another rule's failure before recording anything on this one. */
  readonly unreached: Stopped[] = [];
  /** Tests that stopped on another rule's failure after some checks on this one, before the rest; or went on without checking it. */
  readonly unfinished: Stopped[] = [];
  readonly tests: string[] = [];
  durationMs = 0;

  constructor(readonly id: RuleId) {}

  finalise(): RuleResult {
    const rule = getRule(this.id)!;
    const [status, reason] = this.verdict(rule.level);
    return {
      id: this.id,
      level: rule.level,
      area: rule.area,
      section: rule.section,
      text: rule.text,
      status,
      reason,
      durationMs: Math.round(this.durationMs),
      checks: this.checks,
      observations: [...new Set(this.observations)],
      unverified: this.notSeen(),
      ...(status === 'skipped' || status === 'error' ? { notChecked: this.notCheckedIds(status) } : {}),
      cutShort: this.stoppedShort().map(({ test, stoppedAt }) => ({ test, stoppedAt })),
      tests: this.tests,
    };
  }

  /** The tests that stopped before the rest of the rule (before any of it too, when other checks passed). */
  private stoppedShort(): Stopped[] {
    return this.checks.length > 0 ? [...this.unfinished, ...this.unreached] : this.unfinished;
  }

  /** What tack did not see of the rule: unverified parts; tests that stopped before the rest of it (when other checks passed). */
  private notSeen(): string[] {
    return [...this.unverified.map((u) => `${u.title}: ${u.reason}`), ...this.stoppedShort().map(stoppedText)];
  }

  /**
   * Stable ids of what kept the rule from being checked, in the order the verdict reads them: the
   * tests in error, the parts not seen (unverified, or the rest of a test that stopped at another
   * rule's failure), or the needs unmet. Empty where one of them has none (tack client's problems).
   */
  private notCheckedIds(status: 'skipped' | 'error'): string[] {
    const stopped = (s: Stopped) => `${s.test}/stopped-at/${s.stoppedAt}`;
    let ids: (string | undefined)[];
    if (status === 'error') {
      if (this.errors.length > 0) ids = this.errorTests.length === this.errors.length ? this.errorTests.map((t) => `${t}/error`) : [undefined];
      else ids = this.unreached.length > 0 ? [stopped(this.unreached[0]!)] : [`${this.id}/no-verdict`];
    } else if (this.notSeen().length > 0) ids = [...this.unverified.map((u) => u.id), ...this.stoppedShort().map(stopped)];
    else ids = this.skipIds.length === this.skips.length ? this.skipIds : [undefined];
    return ids.some((id) => id === undefined) ? [] : [...new Set(ids as string[])];
  }

  private verdict(level: 'MUST' | 'SHOULD'): [Status, string] {
    const failed = this.checks.find((c) => !c.ok);
    if (failed) return [level === 'MUST' ? 'failed' : 'warning', `${failed.title}: expected ${failed.expected}, got ${failed.actual}`];
    if (this.errors.length > 0) return ['error', this.errors[0]!];
    const passed = this.checks.length;
    const notSeen = this.notSeen();
    if (notSeen.length > 0) {
      const partly = passed > 0 ? `partly checked (${plural(passed, 'check')} passed); ` : '';
      return ['skipped', `${partly}not checked: ${notSeen[0]}${notSeen.length > 1 ? ` (and ${notSeen.length - 1} more)` : ''}`];
    }
    if (passed > 0) return ['passed', `${plural(passed, 'check')} passed`];
    if (this.unreached.length > 0) return ['error', stoppedText(this.unreached[0]!)];
    if (this.skips.length > 0) return ['skipped', mergeReasons(this.skips).join('; ')];
    return ['error', 'no check gave a verdict (a test stopped before reaching it)'];
  }
}
