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
import { type Need, type TestPart, unmetReasons } from './needs.js';

export interface Selection {
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
  /** Why it cannot run (each missing variable, capability or program); empty when it runs. */
  readonly missing: readonly string[];
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
  const missing = unmetNeeds(test.needs, target, hook, hookProblem, browser);
  if (missing.length > 0) return { missing, unseen: [] };
  const unseen = (test.parts ?? []).flatMap((part) => {
    const lacking = unmetNeeds(part.needs, target, hook, hookProblem, browser);
    return lacking.length > 0 ? [{ part, reason: lacking.join('; ') }] : [];
  });
  return { missing, unseen };
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
    if (runnable.length === 0) return { rule, tests: [], skipReasons: mergeReasons(covering.flatMap((t) => plans.get(t.id)!.missing)) };
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
export function unseenText(part: TestPart, reason: string): string {
  return `partly checked: not checked: ${part.title}: ${reason}`;
}

const HOOK_NEEDED = /^needs the test hook \(TACK_HOOK_URL, TACK_HOOK_TOKEN\) with the (.+) capabilit(?:y|ies)$/;
const HOOK_LACKS = /^the target's test hook does not offer the (.+) capabilit(?:y|ies)$/;

/**
 * The reasons, each once, with every missing capability of the test hook said in one reason
 * ("needs the test hook (…) with the clock, users and api-tokens capabilities") instead of one
 * reason per capability.
 */
export function mergeReasons(reasons: readonly string[]): string[] {
  const needed: string[] = [];
  const lacking: string[] = [];
  const rest: string[] = [];
  const add = (into: string[], list: string) => {
    for (const c of list.split(/, | and /)) if (!into.includes(c)) into.push(c);
  };
  for (const reason of reasons) {
    const need = HOOK_NEEDED.exec(reason);
    const lack = HOOK_LACKS.exec(reason);
    if (need) add(needed, need[1]!);
    else if (lack) add(lacking, lack[1]!);
    else if (!rest.includes(reason)) rest.push(reason);
  }
  const out = [...rest];
  if (needed.length > 0) out.push(`needs the test hook (TACK_HOOK_URL, TACK_HOOK_TOKEN) with the ${capabilities(needed)}`);
  if (lacking.length > 0) out.push(`the target's test hook does not offer the ${capabilities(lacking)}`);
  return out;
}

function capabilities(list: readonly string[]): string {
  const words = list.length === 1 ? list[0]! : `${list.slice(0, -1).join(', ')} and ${list.at(-1)!}`;
  return `${words} capabilit${list.length === 1 ? 'y' : 'ies'}`;
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
