/**
 * What a test sees: the target's clients, the token source, names, and the check API.
 *
 * `check()` records one verdict on one rule and, when it fails, stops the test (the steps after it
 * usually depend on it); `soft()` records without stopping. `property()` runs a fast-check
 * property and records one verdict, with the seed and path to replay it when it fails.
 */
import fc from 'fast-check';
import { getRule, type RuleId } from '../rules/catalog.js';
import type { ApiClient } from './clients/api.js';
import type { HookClient } from './clients/hook.js';
import type { IdentityClient } from './clients/identity.js';
import type { PartnerClient } from './clients/partner.js';
import type { HttpResponse } from './http.js';
import type { Names } from './names.js';
import type { Redactor } from './redactor.js';
import type { TokenSource } from './tokens.js';
import type { Transcript } from './transcript.js';
import type { CheckResult, TargetConfig } from './types.js';

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

export interface PropertySettings {
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
  readonly names: Names;
  readonly redactor: Redactor;
  readonly transcript: Transcript;
  readonly fc: PropertySettings;
  readonly runId: string;
}

export class TestContext {
  readonly checks: CheckResult[] = [];
  readonly observations: { rule: RuleId; text: string }[] = [];
  private inProperty = false;
  private abandoned = false;

  constructor(
    readonly parts: ContextParts,
    readonly testId: string,
  ) {}

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
  get names(): Names {
    return this.parts.names;
  }
  get redactor(): Redactor {
    return this.parts.redactor;
  }
  get fc(): PropertySettings {
    return this.parts.fc;
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
   * The runner gave up on this test (its time ran out). The test's promise may still be running:
   * from now on it gets no client, moves no clock and records nothing, so it cannot disturb the
   * tests after it.
   */
  abandon(): void {
    this.abandoned = true;
  }

  private alive(): void {
    if (this.abandoned) throw new Error(`${this.testId} was abandoned by the runner (its time ran out)`);
  }

  /** Records a verdict; a failure stops the test. Returns nothing useful: use it as an assertion. */
  check(rule: RuleId, title: string, ok: boolean, expected: string, actual: string): void {
    if (!this.record(rule, title, ok, expected, actual)) throw new CheckFailed(rule, title, expected, actual);
  }

  /** Records a verdict without stopping the test; returns `ok`. */
  soft(rule: RuleId, title: string, ok: boolean, expected: string, actual: string): boolean {
    if (!this.record(rule, title, ok, expected, actual) && this.inProperty) throw new CheckFailed(rule, title, expected, actual);
    return ok;
  }

  /** The response has one of the statuses; `describe()` is shown as the actual value. */
  expectStatus(rule: RuleId, title: string, res: HttpResponse, expected: number | readonly number[], options: { soft?: boolean } = {}): boolean {
    const list = typeof expected === 'number' ? [expected] : expected;
    const ok = list.includes(res.status);
    const want = list.length === 1 ? String(list[0]) : `one of ${list.join(', ')}`;
    if (options.soft) return this.soft(rule, title, ok, want, describe(res));
    this.check(rule, title, ok, want, describe(res));
    return ok;
  }

  /** Something the spec leaves open, reported and never failed. */
  observe(rule: RuleId, text: string): void {
    if (this.inProperty || this.abandoned) return;
    this.observations.push({ rule, text: this.parts.redactor.redact(text) });
  }

  /** Moves the target's clock (hook `clock` capability). */
  advance(seconds: number): Promise<Date> {
    return this.hook.advance(seconds);
  }

  /**
   * Runs an async fast-check property. Checks inside it throw instead of recording; one verdict is
   * recorded at the end, under `rule`, with seed and path when it fails.
   */
  async property<T>(rule: RuleId, title: string, arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, options: { numRuns?: number } = {}): Promise<boolean> {
    const settings = this.parts.fc;
    const before = this.checks.length;
    this.inProperty = true;
    let details: fc.RunDetails<[T]>;
    try {
      details = await fc.check(
        fc.asyncProperty(arbitrary, async (value) => {
          await predicate(value);
        }),
        {
          seed: settings.seed,
          numRuns: options.numRuns ?? settings.numRuns,
          ...(settings.path !== undefined ? { path: settings.path } : {}),
          endOnFailure: false,
          interruptAfterTimeLimit: 60_000,
          markInterruptAsFailure: false,
        },
      );
    } finally {
      this.inProperty = false;
    }
    this.checks.length = before;
    if (!details.failed) {
      this.record(rule, `${title} (property, ${details.numRuns} runs, seed ${details.seed >>> 0})`, true, 'holds for every generated case', 'held');
      return true;
    }
    const cause = details.errorInstance;
    const failedRule = cause instanceof CheckFailed ? cause.rule : rule;
    const expected = cause instanceof CheckFailed ? cause.expected : 'the property holds';
    const actual = cause instanceof CheckFailed ? `${cause.actual} (${cause.title})` : errorText(cause);
    const counterexample = this.parts.redactor.redact(fc.stringify(details.counterexample));
    const replay = { seed: details.seed >>> 0, /* fast-check reports the seed signed; --seed takes it unsigned (same value) */ path: details.counterexamplePath ?? undefined, counterexample };
    this.record(rule, `${title} (property)`, false, expected, `${failedRule !== rule ? `${failedRule}: ` : ''}${actual}; counterexample ${counterexample}`, replay);
    throw new CheckFailed(rule, title, expected, actual);
  }

  private record(rule: RuleId, title: string, ok: boolean, expected: string, actual: string, replay?: CheckResult['replay']): boolean {
    if (this.inProperty || this.abandoned) return ok;
    if (!getRule(rule)) throw new Error(`unknown rule id ${rule} in ${this.testId}`);
    const redact = (s: string) => this.parts.redactor.redact(s);
    this.checks.push({
      rule,
      test: this.testId,
      title: redact(title),
      ok,
      expected: redact(expected),
      actual: redact(actual),
      exchanges: this.parts.transcript.seqsOf(this.testId).slice(-12),
      ...(replay ? { replay } : {}),
    });
    return ok;
  }
}

/** A short, redaction-safe description of a response: status, error code, content type. */
export function describe(res: HttpResponse): string {
  const body = res.json as Record<string, unknown> | undefined;
  const error = body && typeof body.error === 'string' ? ` ${body.error}` : '';
  const type = res.headers['content-type'] ? ` (${res.headers['content-type'].split(';')[0]})` : '';
  return `${res.status}${error}${type}`;
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
