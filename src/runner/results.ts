/**
 * What a run found: one verdict per check (`CheckResult`), one per rule (`RuleResult`), each with
 * its status. The reporters render these; results.json is their written form.
 */
import type { PageEvidence } from '../harness/browser/screenshot.js';
import type { CountedBound } from '../checks/finding.js';
import type { RuleId } from '../rules/catalog.js';

/** Every status a rule can end with, in the one order every report lists them: what does not hold first. */
export const STATUSES = ['failed', 'warning', 'error', 'passed', 'skipped'] as const;

export type Status = (typeof STATUSES)[number];

/** One verdict of one check on one rule. */
export interface CheckResult {
  readonly rule: RuleId;
  readonly test: string;
  readonly title: string;
  readonly ok: boolean;
  readonly expected: string;
  readonly actual: string;
  /** Transcript sequence numbers of the exchanges that were made while the check's test ran up to it. */
  readonly exchanges: readonly number[];
  /** A property's failing run: the sequence number of its first exchange (`exchanges` keeps only its last ones). */
  readonly from?: number | undefined;
  /** Set when the check is a property: how to replay it. */
  readonly replay?:
    | {
        readonly seed: number;
        readonly path: string | undefined;
        readonly counterexample: string;
        /** The rule the failing step broke, when it is not the property's own (a lifecycle step that breaks SIGNIN-IDLE-RESET). */
        readonly rule?: string;
      }
    | undefined;
  /** Set on a failed browser check: the page at the failing step. */
  readonly screenshot?: PageEvidence | undefined;
  /** Set on a check of a batch sent together: the count it held to a bound (what a reproduce script counts). */
  readonly counted?: CountedBound | undefined;
}

export interface RuleResult {
  readonly id: RuleId;
  readonly level: 'MUST' | 'SHOULD';
  readonly area: string;
  readonly section: string;
  readonly text: string;
  readonly status: Status;
  readonly reason: string;
  readonly durationMs: number;
  readonly checks: readonly CheckResult[];
  readonly observations: readonly string[];
  /** Parts of the rule tack could not observe (the rule is then at best `skipped`), in words. */
  readonly unverified: readonly string[];
  /**
   * Those of them that are the rest of a test which stopped at another rule's failure, as data:
   * the test and the rule it stopped at (in memory only; results.json has the words).
   */
  readonly cutShort: readonly CutShort[];
  readonly tests: readonly string[];
}

/** A test that stopped at a failed check on `stoppedAt` before it had checked all of another rule. */
export interface CutShort {
  readonly test: string;
  readonly stoppedAt: RuleId;
}
