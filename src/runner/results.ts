/**
 * What a run found: one verdict per check (`CheckResult`), one per rule (`RuleResult`), one outcome
 * per test (`TestOutcome`), each with its status. Each record is a zod schema, the one definition of
 * its fields; the types are `z.infer` of it. results.json writes them as they are (its schema,
 * src/reporters/results-schema.ts, adds what the reporters add), so the two cannot drift.
 *
 * The runner's own types are a little narrower than what a reader of results.json may find: a rule
 * id of this catalog, the page's image still in memory, and `cutShort`, which results.json says in
 * words.
 */
import { z } from 'zod';
import type { PageEvidence } from '../harness/browser/screenshot.js';
import type { RuleId } from '../rules/catalog.js';

/** Every status a rule can end with, in the one order every report lists them: what does not hold first. */
export const STATUSES = ['failed', 'warning', 'error', 'passed', 'skipped'] as const;

export type Status = (typeof STATUSES)[number];

/** The statuses of a rule that does not hold, or could not be judged: every report lists these first and offers their evidence. */
export const NOT_HOLDING = ['failed', 'warning', 'error'] as const satisfies readonly Status[];

export function doesNotHold(status: Status): status is (typeof NOT_HOLDING)[number] {
  return (NOT_HOLDING as readonly Status[]).includes(status);
}

/** One verdict of one check on one rule. */
export const checkSchema = z.looseObject({
  /**
   * Stable across runs and rewordings: `<test id>/<rule>/<key>` (./test-context.ts), what a baseline
   * waives (tack client's: `client/<scenario>/<rule>/<place>`). Absent in the results.json of a tack before ids.
   */
  id: z.string().optional(),
  rule: z.string(),
  test: z.string(),
  title: z.string(),
  ok: z.boolean(),
  expected: z.string(),
  actual: z.string(),
  /** Transcript sequence numbers of the exchanges that were made while the check's test ran up to it. */
  exchanges: z.array(z.number()),
  /** A property's failing run: the sequence number of its first exchange (`exchanges` keeps only its last ones). */
  from: z.number().optional(),
  /**
   * Set when the check is a property: how to replay it. `rule`: the rule the failing step broke,
   * when it is not the property's own (a lifecycle step that breaks SIGNIN-IDLE-RESET).
   */
  replay: z.looseObject({ seed: z.number(), path: z.string().optional(), counterexample: z.string(), rule: z.string().optional() }).optional(),
  /** A failed browser check: where the page was, and its screenshot's path in the run's folder (or why none was kept). */
  screenshot: z.looseObject({ step: z.string(), page: z.string(), withheld: z.string().optional(), file: z.string().optional() }).optional(),
  /** A check of a batch of requests sent together: the count it held to a bound (`returned`: tokens the batch returned; `alive`: of those, still usable). */
  counted: z.looseObject({ bound: z.number(), of: z.enum(['returned', 'alive']) }).optional(),
});

/** One rule's verdict, as the runner makes it (results.json adds the evidence: src/reporters/results-schema.ts). */
export const ruleSchema = z.looseObject({
  id: z.string(),
  level: z.enum(['MUST', 'SHOULD']),
  area: z.string(),
  section: z.string(),
  text: z.string(),
  status: z.enum(STATUSES),
  reason: z.string(),
  durationMs: z.number(),
  checks: z.array(checkSchema),
  observations: z.array(z.string()),
  /** Parts of the rule tack could not observe (the rule is then at best `skipped`), in words. */
  unverified: z.array(z.string()),
  /**
   * A rule skipped or in error: stable ids of what kept it from being checked (`<test>/needs/<need>`,
   * `<test>/<rule>/unverified/<place>`, `<test>/stopped-at/<rule>`, `<test>/error`), what a baseline's
   * entry for a skip or an error names. Empty when one has no id; absent before tack had ids.
   */
  notChecked: z.array(z.string()).optional(),
  tests: z.array(z.string()),
});

/** How one test ended. */
export const testSchema = z.looseObject({
  id: z.string(),
  title: z.string(),
  rules: z.array(z.string()),
  status: z.enum(['passed', 'failed', 'skipped', 'error']),
  reason: z.string(),
  durationMs: z.number(),
});

/**
 * A zod type as tack reads it: every member read-only, and only the members the schema names (a
 * loose object's "any other member" is what a newer tack may add, not something this one reads).
 */
export type Known<T> = T extends readonly (infer U)[]
  ? readonly Known<U>[]
  : T extends object
    ? { readonly [K in keyof T as string extends K ? never : K]: Known<T[K]> }
    : T;

/** `T` with the members of `N` in place of its own (the runner's narrower types). */
export type Narrowed<T, N> = Omit<T, keyof N> & N;

/** A rule's verdict as results.json has it, and as the runner makes it (`RuleResult` is narrower). */
export type RuleRecord = Known<z.infer<typeof ruleSchema>>;

export type CheckResult = Narrowed<Known<z.infer<typeof checkSchema>>, { readonly rule: RuleId; readonly screenshot?: PageEvidence | undefined }>;

export type RuleResult = Narrowed<
  RuleRecord,
  {
    readonly id: RuleId;
    readonly checks: readonly CheckResult[];
    /**
     * Those of `unverified` that are the rest of a test which stopped at another rule's failure, as
     * data: the test and the rule it stopped at (in memory only; results.json has the words).
     */
    readonly cutShort: readonly CutShort[];
  }
>;

export type TestOutcome = Known<z.infer<typeof testSchema>>;

/** A test that stopped at a failed check on `stoppedAt` before it had checked all of another rule. */
interface CutShort {
  readonly test: string;
  readonly stoppedAt: RuleId;
}
