/**
 * Which tests a run starts, which cannot run here, and which parts of their rules they cannot see
 * here. A test runs when it declares a selected rule (`--only`, or every rule); since a test records
 * verdicts only on rules it declares, `--only RULE` runs exactly the tests a full run would judge
 * RULE with.
 *
 * `planTest` is the one place that decides, from the configuration alone, whether a test runs and
 * which of its declared parts (`TestCase.parts`) stay unseen: the runner follows it, and `tack doctor`
 * predicts a run's checked and skipped rules with it (`planRules`), so the two cannot disagree.
 */
import { SERVER_RULES, type RuleId } from '../rules/catalog.js';
import { type BrowserLookup, findBrowser } from '../harness/browser/executable.js';
import type { HookClient } from '../harness/clients/hook.js';
import type { TestCase } from './test-case.js';
import type { TargetConfig } from '../harness/target-config.js';
import { type HookMissing, hookReason, type Need, type TestPart, type UnmetNeed, unmetReasons } from './needs.js';
import type { Capability } from '../harness/clients/hook.js';

interface Selection {
  readonly rules: readonly RuleId[];
  readonly tests: readonly TestCase[];
  /** Index (in `tests`) of the last test declaring each rule: its verdict is final after it. */
  readonly lastTestOf: ReadonlyMap<RuleId, number>;
}

export function selectTests(all: readonly TestCase[], only: readonly string[]): Selection {
  const wanted = new Set(only);
  // Server rules only: the client rules (area client) are judged by tack client, against a program, not a target.
  const rules = SERVER_RULES.filter((r) => wanted.size === 0 || wanted.has(r.id)).map((r) => r.id as RuleId);
  const selected = new Set<RuleId>(rules);
  const tests = all.filter((t) => t.rules.some((r) => selected.has(r)));
  const lastTestOf = new Map<RuleId, number>();
  tests.forEach((t, i) => {
    for (const r of t.rules) if (selected.has(r)) lastTestOf.set(r, i);
  });
  return { rules, tests, lastTestOf };
}

/** What one test can do on this configuration. */
export interface TestPlan {
  /** Why it cannot run (each missing variable, capability or program), in words; empty when it runs. */
  readonly missing: readonly string[];
  /** The same, as data (the needs unmet), for merging with other tests' (a rule's reason). */
  readonly unmet: readonly UnmetNeed[];
  /** The parts of its rules it runs without (their needs unmet), each with why. */
  readonly unseen: readonly { readonly part: TestPart; readonly reason: string }[];
}

export function planTest(
  test: Pick<TestCase, 'needs' | 'parts'>,
  target: TargetConfig,
  hook: HookClient | undefined,
  hookProblem: string | undefined,
  browser: BrowserLookup = findBrowser(target.browser),
): TestPlan {
  const unmet = unmetReasons(test.needs, target, hook, hookProblem, browser);
  if (unmet.length > 0) return { missing: mergeReasons(unmet), unmet, unseen: [] };
  const unseen = (test.parts ?? []).flatMap((part) => {
    const lacking = unmetNeeds(part.needs, target, hook, hookProblem, browser);
    return lacking.length > 0 ? [{ part, reason: lacking.join('; ') }] : [];
  });
  return { missing: [], unmet: [], unseen };
}

export interface RulePlan {
  readonly rule: RuleId;
  /** Ids of the tests that would run for it. */
  readonly tests: readonly string[];
  /** Why it would be skipped (no test can run, or a part of it would not be seen); empty when it would be checked. */
  readonly skipReasons: readonly string[];
}

/**
 * What a run with this configuration would check, rule by rule, as the runner decides it
 * (`planTest`): a rule is checked when a test declaring it runs and no running test leaves a part of
 * it unseen. What only the target's answers can decide (a page that cannot be read to its end, a
 * token that did not come back) is not foreseen.
 */
export function planRules(
  tests: readonly TestCase[],
  only: readonly string[],
  target: TargetConfig,
  hook: HookClient | undefined,
  hookProblem: string | undefined,
  browser: BrowserLookup = findBrowser(target.browser),
): RulePlan[] {
  const selection = selectTests(tests, only);
  const plans = new Map(selection.tests.map((t) => [t.id, planTest(t, target, hook, hookProblem, browser)]));
  return selection.rules.map((rule) => {
    const covering = selection.tests.filter((t) => t.rules.includes(rule));
    if (covering.length === 0) return { rule, tests: [], skipReasons: [NO_TEST] };
    const runnable = covering.filter((t) => plans.get(t.id)!.missing.length === 0);
    if (runnable.length === 0) return { rule, tests: [], skipReasons: mergeReasons(covering.flatMap((t) => plans.get(t.id)!.unmet)) };
    const unseen = runnable.flatMap((t) =>
      plans
        .get(t.id)!
        .unseen.filter((u) => u.part.rule === rule)
        .map((u) => unseenText(u.part, u.reason)),
    );
    return { rule, tests: runnable.map((t) => t.id), skipReasons: unseen };
  });
}

export const NO_TEST = 'no test in this version of tack covers it';

/** How a part left unseen reads in a rule's reason. */
function unseenText(part: TestPart, reason: string): string {
  return `partly checked: not checked: ${part.title}: ${reason}`;
}

/**
 * The reasons, each once, with every missing capability of the test hook said in one reason
 * ("needs the test hook (…) with the clock, users and api-tokens capabilities") instead of one
 * reason per capability: merged from the needs as data, never from their words (a plain reason,
 * such as "no test covers it", is kept as it is).
 */
export function mergeReasons(unmet: readonly (UnmetNeed | string)[]): string[] {
  const capabilities: Record<HookMissing, Capability[]> = { 'no-hook': [], 'not-offered': [] };
  const rest: string[] = [];
  for (const { reason, hook } of unmet.map((u) => (typeof u === 'string' ? { reason: u, hook: undefined } : u))) {
    if (hook === undefined) {
      if (!rest.includes(reason)) rest.push(reason);
    } else if (!capabilities[hook.missing].includes(hook.capability)) capabilities[hook.missing].push(hook.capability);
  }
  const out = [...rest];
  for (const missing of ['no-hook', 'not-offered'] as const) if (capabilities[missing].length > 0) out.push(hookReason(missing, capabilities[missing]));
  return out;
}

/** Why a test cannot run here: each missing variable, capability or program, named (./needs.ts). */
export function unmetNeeds(
  needs: readonly Need[],
  target: TargetConfig,
  hook: HookClient | undefined,
  hookProblem: string | undefined,
  browser: BrowserLookup = findBrowser(target.browser),
): string[] {
  return mergeReasons(unmetReasons(needs, target, hook, hookProblem, browser));
}
