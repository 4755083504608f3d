/**
 * A test: what the runner runs, the suites and the scenarios declare.
 *
 * A *test* (a rule suite's property or a scenario) declares the rules it gives verdicts on and the
 * preconditions it needs; the runner skips it, with the reason, when a precondition is missing.
 * Inside, every verdict is a *check* recorded against one rule id (OpenID-conformance style: the
 * check knows what it expects; the test says which rule it serves).
 */
import type { RuleId } from '../rules/catalog.js';
import type { TestContext } from './test-context.js';
import type { Need, TestPart } from './needs.js';

export interface TestCase {
  /** Stable id, `area/name` for suites, `scenario/name` for scenarios. */
  readonly id: string;
  readonly title: string;
  readonly rules: readonly RuleId[];
  readonly needs: readonly Need[];
  /** Parts of its rules it checks only where their own needs are met. */
  readonly parts?: readonly TestPart[];
  run(t: TestContext): Promise<void>;
}
