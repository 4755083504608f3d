/**
 * What a test sees: the target's clients, the token source, names, and the API that turns what a
 * check found into verdicts on rules.
 *
 * - `check(rule, title, finding)` records one verdict and, when it fails, stops the test (the steps
 *   after it usually depend on it); `soft()` records without stopping.
 * - `unverified(rule, title, reason)`: a part of a rule tack could not observe here (no user who
 *   reads data, paging it cannot drive...). The rule is then not passed: at best `skipped`, with
 *   the reason.
 * - `property()` runs a fast-check property and records one verdict, with the seed and path to
 *   replay it and the exchanges of the failing counterexample when it fails.
 * - `undo(step)`: what a test changes on the target and must change back (a tenant's feature). The
 *   test calls the returned function itself; whatever it did not call (it was stopped or abandoned
 *   first) the runner runs when the test ends, before a stop signal shuts the traffic off.
 *
 * Every check has a stable id, `<test id>/<rule>/<key>` (what a baseline waives: ./baseline.ts).
 * The key is the test's own: given where the checks of one rule follow the data (an endpoint, a
 * malformation: `keyed(key, title)`), else the check's place among the test's checks on that rule
 * (1, 2, ...) in the order the code records them. Never the title: a reworded title keeps its id.
 *
 * A test records verdicts only on the rules it declares (`TestCase.rules`): a check on another rule
 * is a programming error, so that `--only`, the console and results.json judge a rule on the same
 * evidence, and `tack rules` can say which tests judge it.
 */
import fc from 'fast-check';
import { getRule, type RuleId } from '../rules/catalog.js';
import { errorText } from '../harness/errors.js';
import type { Web } from '../harness/browser/web.js';
import type { ApiClient } from '../harness/clients/api.js';
import type { HookClient } from '../harness/clients/hook.js';
import type { IdentityClient } from '../harness/clients/identity.js';
import type { PartnerClient } from '../harness/clients/partner.js';
import type { Finding } from '../checks/finding.js';
import type { Names } from '../harness/names.js';
import type { Readers } from '../harness/readers.js';
import type { Redactor } from '../harness/redactor.js';
import type { TokenSource } from '../harness/tokens.js';
import type { Transcript } from '../harness/transcript.js';
import type { TestPart } from './needs.js';
import type { TargetConfig } from '../harness/target-config.js';
import type { PageEvidence } from '../harness/browser/screenshot.js';
import type { CheckResult } from './results.js';

/** Thrown by a failed `check()`; the runner knows the verdict is already recorded. */
export class CheckFailed extends Error {
  constructor(
    readonly rule: RuleId,
    readonly title: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(`${rule}: ${title}: expected ${expected}, got ${actual}`);
    this.name = 'CheckFailed';
  }
}

/** A test recorded a verdict on a rule it does not declare: a bug in tack, reported as `error`. */
export class UndeclaredRule extends Error {
  constructor(testId: string, rule: string) {
    super(`tack bug: test ${testId} recorded a verdict on ${rule}, which it does not declare in its rules`);
    this.name = 'UndeclaredRule';
  }
}

/** A property that made fewer runs than configured (its time ran out): not a pass. */
class PropertyIncomplete extends Error {
  constructor(title: string, made: number, wanted: number, limitS: number) {
    super(`property "${title}" made ${made} of ${wanted} runs before its time limit (${limitS} s): not enough to judge`);
    this.name = 'PropertyIncomplete';
  }
}

interface PropertySettings {
  readonly seed: number;
  readonly numRuns: number;
  /** Replay path from an earlier failure (`tack run --seed S --path P --only RULE`). */
  readonly path: string | undefined;
}

export interface ContextParts {
  readonly target: TargetConfig;
  readonly partner: PartnerClient;
  readonly otherPartner: PartnerClient | undefined;
  /** Tenant A's key sent to tenant B's host (cross-tenant checks). */
  readonly partnerAtOther: PartnerClient | undefined;
  readonly identity: IdentityClient;
  readonly api: ApiClient;
  readonly hook: HookClient | undefined;
  readonly tokens: TokenSource;
  readonly readers: Readers;
  /** The web interface in the run's browser (launched on first use). */
  readonly web: Web;
  readonly names: Names;
  readonly redactor: Redactor;
  readonly transcript: Transcript;
  readonly fc: PropertySettings;
  readonly runId: string;
}

/** A part of a rule that could not be observed, and why. */
export interface Unverified {
  /** Stable across runs: `<test id>/<rule>/unverified/<place or key>` (what a baseline's accepted skip names). */
  readonly id?: string | undefined;
  readonly rule: RuleId;
  readonly title: string;
  readonly reason: string;
}

/** A check's title with the key of its id, for checks of one rule that follow the data (an endpoint, a fixture's kind). */
interface KeyedTitle {
  readonly key: string;
  readonly title: string;
}

/** A title whose check id ends in `key` instead of its place among the test's checks on the rule. */
export function keyed(key: string, title: string): KeyedTitle {
  return { key, title };
}

type CheckTitle = string | KeyedTitle;

const titleText = (title: CheckTitle): string => (typeof title === 'string' ? title : title.title);

/** Most exchanges kept as the evidence of one check (the failing property run's may be long). */
const MAX_EVIDENCE = 64;

export class TestContext {
  readonly checks: CheckResult[] = [];
  readonly observations: { rule: RuleId; text: string }[] = [];
  readonly unverifiedParts: Unverified[] = [];
  private readonly declared: ReadonlySet<RuleId>;
  private inProperty = false;
  private abandoned = false;
  private readonly undos = new Set<() => Promise<void>>();
  /** How many checks (and parts not seen) without a key each rule has had in this test (the place of the next one). */
  private readonly places = new Map<string, number>();

  constructor(
    readonly parts: ContextParts,
    readonly test: { readonly id: string; readonly rules: readonly RuleId[] },
    /** When the runner gives up on this test (ms since the epoch, real clock). */
    private readonly deadlineAt: number = Number.POSITIVE_INFINITY,
    /** Parts of its rules the test runs without here (./selection.ts `planTest`), each with why. */
    unseen: readonly { readonly part: TestPart; readonly reason: string }[] = [],
  ) {
    this.declared = new Set(test.rules);
    for (const { part, reason } of unseen) {
      this.unseen.add(part);
      this.unverified(part.rule, part.title, reason);
    }
  }

  private readonly unseen = new Set<TestPart>();

  /** Whether this configuration lets the test check `part` (one of its `parts`); where not, it is recorded as not checked already. */
  can(part: TestPart): boolean {
    return !this.unseen.has(part);
  }

  get testId(): string {
    return this.test.id;
  }
  get target(): TargetConfig {
    return this.parts.target;
  }
  get partner(): PartnerClient {
    this.alive();
    return this.parts.partner;
  }
  get identity(): IdentityClient {
    this.alive();
    return this.parts.identity;
  }
  get api(): ApiClient {
    this.alive();
    return this.parts.api;
  }
  get tokens(): TokenSource {
    this.alive();
    return this.parts.tokens;
  }
  get readers(): Readers {
    this.alive();
    return this.parts.readers;
  }
  get names(): Names {
    return this.parts.names;
  }
  /** The web interface (tests that declare the browser need). */
  get web(): Web {
    this.alive();
    return this.parts.web;
  }
  get redactor(): Redactor {
    return this.parts.redactor;
  }
  get fc(): PropertySettings {
    return this.parts.fc;
  }

  /** Whether the target's clock can be moved (the hook's `clock` capability), for tests that do not need it. */
  get canMoveClock(): boolean {
    return this.parts.hook?.has('clock') ?? false;
  }

  /** The hook; the runner only starts tests whose `hook:*` needs are met. */
  get hook(): HookClient {
    this.alive();
    if (!this.parts.hook) throw new Error(`${this.testId} used the test hook without declaring a hook need`);
    return this.parts.hook;
  }

  get otherPartner(): PartnerClient {
    this.alive();
    if (!this.parts.otherPartner) throw new Error(`${this.testId} used tenant B's key without declaring the other-partner need`);
    return this.parts.otherPartner;
  }

  get partnerAtOther(): PartnerClient {
    this.alive();
    if (!this.parts.partnerAtOther) throw new Error(`${this.testId} used tenant B's host without declaring the other-tenant need`);
    return this.parts.partnerAtOther;
  }

  /**
   * Registers how to change back something the test changed on the target. Returns the function the
   * test calls to change it back; not called by the time the test ends, the runner calls it.
   */
  undo(step: () => Promise<void>): () => Promise<void> {
    let done: Promise<void> | undefined;
    const once = () => {
      this.undos.delete(once);
      done ??= step();
      return done;
    };
    this.undos.add(once);
    return once;
  }

  /** Runs every undo the test left (the runner, when the test ends, before a stop takes effect); their errors are ignored. */
  async undoAll(): Promise<void> {
    for (const step of [...this.undos]) await step().catch(() => undefined);
  }

  /**
   * The runner gave up on this test (its time ran out). The test's promise may still be running:
   * from now on it gets no client, moves no clock and records nothing, so it cannot disturb the
   * tests after it.
   */
  abandon(): void {
    this.abandoned = true;
  }

  private alive(): void {
    if (this.abandoned) throw new Error(`${this.testId} was abandoned by the runner (its time ran out, or the run was stopped)`);
  }

  /** Records a verdict; a failure stops the test. `page`: what a failed browser check saw (kept only on a failure). */
  check(rule: RuleId, title: CheckTitle, found: Finding, page?: PageEvidence): void {
    if (!this.record(rule, title, found, undefined, undefined, page)) throw new CheckFailed(rule, titleText(title), found.expected, found.actual);
  }

  /** Records a verdict without stopping the test; returns whether it holds. */
  soft(rule: RuleId, title: CheckTitle, found: Finding, page?: PageEvidence): boolean {
    if (!this.record(rule, title, found, undefined, undefined, page) && this.inProperty)
      throw new CheckFailed(rule, titleText(title), found.expected, found.actual);
    return found.ok;
  }

  /** A part of `rule` tack could not observe on this target: the rule cannot pass. */
  unverified(rule: RuleId, title: CheckTitle, reason: string): void {
    if (this.inProperty || this.abandoned) return;
    this.assertDeclared(rule);
    const redact = (text: string) => this.parts.redactor.redact(text);
    const id = redact(this.idOf(rule, title, 'unverified'));
    this.unverifiedParts.push({ id, rule, title: redact(titleText(title)), reason: redact(reason) });
  }

  /** Something the spec leaves open, reported and never failed. */
  observe(rule: RuleId, text: string): void {
    if (this.inProperty || this.abandoned) return;
    this.assertDeclared(rule);
    this.observations.push({ rule, text: this.parts.redactor.redact(text) });
  }

  /** Moves the target's clock (hook `clock` capability). */
  advance(seconds: number): Promise<Date> {
    return this.hook.advance(seconds);
  }

  /**
   * Runs an async fast-check property and records one verdict under `rule`. Checks inside it throw
   * instead of recording. When it fails, the verdict carries the seed and path to replay it and the
   * exchanges of the failing counterexample (the last run that failed, after shrinking). A transport
   * or hook error inside it ends the test in `error`, not `failed`; a property cut off by its time
   * limit before making its runs is `error` too.
   */
  async property<T>(
    rule: RuleId,
    title: string,
    arbitrary: fc.Arbitrary<T>,
    predicate: (value: T) => Promise<void>,
    options: { numRuns?: number } = {},
  ): Promise<boolean> {
    this.assertDeclared(rule);
    const settings = this.parts.fc;
    const numRuns = options.numRuns ?? settings.numRuns;
    const transcript = this.parts.transcript;
    let failingRun: readonly number[] = [];
    let broken: unknown;
    const limitMs = Math.max(1_000, Math.min(600_000, this.deadlineAt - Date.now() - 2_000));
    this.inProperty = true;
    let details: fc.RunDetails<[T]>;
    try {
      details = await fc.check(
        fc.asyncProperty(arbitrary, async (value) => {
          // After a transport or hook error nothing more is sent: shrinking ends at once.
          if (broken !== undefined) return;
          const before = transcript.size;
          try {
            await predicate(value);
          } catch (error) {
            if (error instanceof CheckFailed) {
              failingRun = transcript.seqsOf(this.testId).filter((seq) => seq > before);
            } else {
              broken = error;
            }
            throw error;
          }
        }),
        {
          seed: settings.seed,
          numRuns,
          ...(settings.path !== undefined ? { path: settings.path } : {}),
          endOnFailure: false,
          interruptAfterTimeLimit: limitMs,
          markInterruptAsFailure: false,
        },
      );
    } finally {
      this.inProperty = false;
    }
    if (broken !== undefined) throw broken;
    const replay = settings.path === undefined;
    if (!details.failed) {
      if (details.interrupted && details.numRuns < numRuns && replay) throw new PropertyIncomplete(title, details.numRuns, numRuns, Math.round(limitMs / 1000));
      this.record(rule, `${title} (property, ${details.numRuns} runs, seed ${details.seed >>> 0})`, {
        ok: true,
        expected: 'holds for every generated case',
        actual: 'held',
      });
      return true;
    }
    const cause = details.errorInstance;
    const failedRule = cause instanceof CheckFailed ? cause.rule : rule;
    const expected = cause instanceof CheckFailed ? cause.expected : 'the property holds';
    const broke = failedRule !== rule ? `, which breaks ${failedRule}` : '';
    const actual = cause instanceof CheckFailed ? `${cause.actual}, at ${cause.title}${broke}` : errorText(cause);
    const counterexample = this.parts.redactor.redact(fc.stringify(details.counterexample));
    // The generated value in words (a property of one argument is given it as a one-element tuple).
    const [only] = details.counterexample ?? [];
    const words = this.parts.redactor.redact(details.counterexample?.length === 1 ? fc.stringify(only) : counterexample);
    // fast-check reports the seed signed; --seed takes it unsigned (same value).
    const replayInfo = { seed: details.seed >>> 0, path: details.counterexamplePath ?? undefined, counterexample, ...(broke ? { rule: failedRule } : {}) };
    this.record(rule, `${title} (property)`, { ok: false, expected, actual: `${actual}; the case that fails: ${words}` }, replayInfo, failingRun);
    throw new CheckFailed(rule, title, expected, actual);
  }

  private assertDeclared(rule: RuleId): void {
    if (!getRule(rule) || !this.declared.has(rule)) throw new UndeclaredRule(this.testId, rule);
  }

  private redactedPage(page: PageEvidence): PageEvidence {
    const redact = (s: string) => this.parts.redactor.redact(s);
    return { ...page, step: redact(page.step), page: redact(page.page), withheld: page.withheld === undefined ? undefined : redact(page.withheld) };
  }

  /** The stable id of the next check on `rule`: its key, or its place among the test's checks on the rule. */
  private idOf(rule: RuleId, title: CheckTitle, kind: 'check' | 'unverified' = 'check'): string {
    const prefix = kind === 'check' ? `${this.testId}/${rule}` : `${this.testId}/${rule}/unverified`;
    if (typeof title !== 'string') return `${prefix}/${title.key}`;
    const counter = `${kind} ${rule}`;
    const place = (this.places.get(counter) ?? 0) + 1;
    this.places.set(counter, place);
    return `${prefix}/${place}`;
  }

  private record(rule: RuleId, title: CheckTitle, found: Finding, replay?: CheckResult['replay'], evidence?: readonly number[], page?: PageEvidence): boolean {
    if (this.inProperty || this.abandoned) return found.ok;
    this.assertDeclared(rule);
    const redact = (s: string) => this.parts.redactor.redact(s);
    const exchanges = evidence ?? this.parts.transcript.seqsOf(this.testId);
    this.checks.push({
      id: redact(this.idOf(rule, title)),
      rule,
      test: this.testId,
      title: redact(titleText(title)),
      ok: found.ok,
      expected: redact(found.expected),
      actual: redact(found.actual),
      exchanges: exchanges.slice(evidence ? -MAX_EVIDENCE : -12),
      ...(evidence && evidence.length > 0 ? { from: evidence[0] } : {}),
      ...(replay ? { replay } : {}),
      ...(page && !found.ok ? { screenshot: this.redactedPage(page) } : {}),
      ...(found.counted ? { counted: found.counted } : {}),
    });
    return found.ok;
  }
}
