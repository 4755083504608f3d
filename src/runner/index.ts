/**
 * Runs tests against one target and turns their checks into one verdict per rule: selection
 * (./selection.ts), one test at a time (./one-test.ts), the verdict of each rule once every test
 * declaring it has finished (./rule-verdict.ts).
 *
 * Tests run one after another: the target's clock is global and only moves forward, so two tests
 * at once would see each other's time travel. Every test mints what it needs after the last clock
 * move it makes.
 *
 * However the run ends (every test done, the deadline, a stop signal, an error), its clean-up runs:
 * the browser's pages give up any token left on screen, the token file's lock is released once an
 * exchange in flight has landed, and every API token tack generated is revoked (cleanup/ledger.ts).
 */
import type { RuleId } from '../rules/catalog.js';
import { BrowserHost, type LentBrowser } from '../harness/browser/browser-host.js';
import { PageTokens } from '../harness/browser/page-tokens.js';
import { Web } from '../harness/browser/web.js';
import { ApiClient } from '../harness/clients/api.js';
import { IdentityClient } from '../harness/clients/identity.js';
import { PartnerClient } from '../harness/clients/partner.js';
import type { ContextParts } from './test-context.js';
import type { TokenLedger, TokenReport } from '../harness/cleanup/ledger.js';
import { discoverHook } from '../harness/hook-discovery.js';
import type { HttpClient } from '../harness/http.js';
import type { ErrorCode } from '../harness/errors.js';
import { type Interrupt, type StopSignal, stopError, stopText } from '../harness/interrupt.js';
import { Names } from '../harness/names.js';
import { Readers } from '../harness/readers.js';
import type { Redactor } from '../harness/redactor.js';
import { newLedger } from '../harness/session.js';
import { TokenSource } from '../harness/tokens.js';
import type { Transcript } from '../harness/transcript.js';
import type { TestCase } from './test-case.js';
import { runOneTest, type TestLimits, type TestRun } from './one-test.js';
import { RuleEvidence } from './rule-verdict.js';
import { NO_TEST, planTest, selectTests } from './selection.js';
import { passwordNotes, usesWebPassword } from './web-password.js';
import type { TargetConfig } from '../harness/target-config.js';
import type { RuleResult, TestOutcome } from './results.js';
import type { Capability } from '../harness/clients/hook.js';

export type { TestOutcome } from './results.js';

interface RunOptions {
  readonly target: TargetConfig;
  readonly tests: readonly TestCase[];
  /** Rule ids to check; all when empty. */
  readonly only: readonly string[];
  readonly seed: number;
  readonly numRuns: number;
  readonly path: string | undefined;
  readonly runId: string;
  readonly http: HttpClient;
  readonly redactor: Redactor;
  readonly transcript: Transcript;
  /** Called once per rule, when its verdict is final (every test declaring it has finished). */
  readonly onRule?: (result: RuleResult) => void;
  readonly onTest?: (test: TestCase, phase: 'start' | 'end') => void;
  /** Per-test time limit; default 120 s. */
  readonly testTimeoutMs?: number;
  /**
   * Whole-run deadline (ms since the epoch, by the real clock). When it passes, the running test is
   * abandoned and no further test starts; their rules are reported `error` (TACK_ERR_RUN_DEADLINE),
   * and the result is returned as usual so the reports are still written.
   */
  readonly deadlineAt?: number;
  /** The session's ledger of the API tokens tack generates; a ledger of this run only when absent. */
  readonly ledger?: TokenLedger;
  /** A stop signal: no test starts after it, the one under way is abandoned, the clean-up runs. */
  readonly interrupt?: Interrupt;
  /**
   * A browser the caller launched (`launchBrowser`) and lends the run instead of the run launching
   * its own; the run opens its own contexts in it and leaves it open. tack's own tests share one.
   */
  readonly browser?: LentBrowser;
}

export interface RunResult {
  readonly runId: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly seed: number;
  readonly numRuns: number;
  readonly capabilities: readonly Capability[];
  readonly hookContract: string | undefined;
  readonly hookProblem: string | undefined;
  readonly fieldsUsed: Record<string, string>;
  readonly rules: readonly RuleResult[];
  readonly tests: readonly TestOutcome[];
  /** Set when the run's deadline (TACK_RUN_DEADLINE_S) cut it short. */
  readonly deadline: { readonly seconds: number } | undefined;
  /** Set when a stop signal cut it short. */
  readonly interrupted?: { readonly signal: StopSignal } | undefined;
  /** The API tokens tack generated, revoked, left alive (`tack client` generates none: absent). */
  readonly tokens?: TokenReport | undefined;
  /** Set when a sign-in with TACK_USER_PASSWORD did not end signed in: what happened and what to do (a configuration error: exit 2). */
  readonly passwordRefused?: string | undefined;
  /** Its code: TACK_ERR_USER_PASSWORD (the page asked for the password again) or TACK_ERR_SIGN_IN_REFUSED (it showed something else). */
  readonly passwordRefusedCode?: ErrorCode | undefined;
  /** What the run says about its own configuration (a variable set and not used). */
  readonly notes?: readonly string[] | undefined;
}

export async function runConformance(options: RunOptions): Promise<RunResult> {
  const startedAt = new Date();
  const { target, http, redactor, transcript } = options;
  const ledger = options.ledger ?? newLedger(http, redactor, target);
  const { hook, problem: hookProblem } = await discoverHook({ target, http, redactor, transcript, ledger });
  const parts = contextParts(options, hook, ledger);
  const interrupt = options.interrupt;
  const selection = selectTests(options.tests, options.only);
  const selected = new Set<RuleId>(selection.rules);
  const evidence = new Map(selection.rules.map((id) => [id, new RuleEvidence(id)]));
  const outcomes: TestOutcome[] = [];
  const emitted = new Set<RuleId>();
  const emit = (id: RuleId) => {
    if (emitted.has(id)) return;
    emitted.add(id);
    options.onRule?.(evidence.get(id)!.finalise());
  };
  // Rules no test covers are reported too, so nothing is silently dropped.
  for (const id of selection.rules) {
    if (selection.lastTestOf.has(id)) continue;
    evidence.get(id)!.skips.push(NO_TEST);
    evidence.get(id)!.skipIds.push(`${id}/no-test`);
  }

  const deadlineText = `the run did not finish within ${target.runDeadlineS} s (TACK_RUN_DEADLINE_S)`;
  const stop = interrupt?.stopped.then(stopError);
  /** Once stopped, nothing more is sent but the clean-up (after the abandoned test's undo). */
  const shutOff = () => {
    if (interrupt?.signal !== undefined) http.stop(stopError(interrupt.signal));
  };
  const limits: TestLimits = {
    timeoutMs: options.testTimeoutMs ?? 120_000,
    deadlineAt: options.deadlineAt ?? Number.POSITIVE_INFINITY,
    deadlineText,
    ...(stop ? { stop } : {}),
  };
  let deadlineHit = false;
  try {
    deadlineHit = await runTests();
  } finally {
    shutOff();
    transcript.setTest('cleanup');
    await parts.web.close(deadlineHit || interrupt?.signal !== undefined); // a token left on a page read first; the run's browser
    await parts.tokens.close().catch(() => undefined); // hookless mode: the token file's lock, once its exchange in flight has landed
    await http.settled(target.requestTimeoutMs); // what a stopped test had in flight, read (a token in it listed)
    await ledger.revokeAll(); // every API token tack generated, whatever happened
    transcript.setTest(undefined);
  }

  /** Why a test is not started: the deadline, a stop, or TACK_USER_PASSWORD refused (undefined: start it). */
  function notStarted(test: TestCase): string | undefined {
    if (deadlineHit || limits.deadlineAt - Date.now() <= 0) {
      deadlineHit = true;
      return deadlineText;
    }
    if (interrupt?.signal !== undefined) return stopText(interrupt.signal);
    const refused = parts.web.guard.refused;
    if (refused !== undefined && usesWebPassword(test.needs, parts)) return `${refused.code}: ${refused.message}`;
    return undefined;
  }

  async function runTests(): Promise<boolean> {
    for (const [index, test] of selection.tests.entries()) {
      const relevant = test.rules.filter((r) => selected.has(r));
      const { missing, unmet, unseen } = planTest(test, target, hook, hookProblem, parts.web.host.found);
      const why = missing.length > 0 ? undefined : notStarted(test);
      if (why !== undefined) {
        for (const r of relevant) {
          evidence.get(r)!.errors.push(`${test.id} not run: ${why}`);
          evidence.get(r)!.errorTests.push(test.id);
        }
        outcomes.push({ id: test.id, title: test.title, rules: relevant, status: 'error', reason: `not run: ${why}`, durationMs: 0 });
      } else if (missing.length > 0) {
        const reason = missing.join('; ');
        for (const r of relevant) {
          evidence.get(r)!.skips.push(...unmet);
          evidence.get(r)!.skipIds.push(...unmet.map((u) => `${test.id}/needs/${u.need}`));
        }
        outcomes.push({ id: test.id, title: test.title, rules: relevant, status: 'skipped', reason, durationMs: 0 });
      } else {
        options.onTest?.(test, 'start');
        const run = await runOneTest(test, parts, limits, relevant, unseen);
        shutOff(); // stopped during the test: its undo ran; the abandoned test sends nothing more
        await parts.web.afterTest(run.abandoned); // the browser contexts the test opened (a token left on screen read first)
        deadlineHit ||= run.hitDeadline;
        collect(evidence, run, relevant);
        outcomes.push(run.outcome);
        options.onTest?.(test, 'end');
      }
      for (const r of relevant) if (selection.lastTestOf.get(r) === index) emit(r);
    }
    return deadlineHit;
  }
  for (const id of selection.rules) emit(id);

  return {
    runId: options.runId,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    seed: options.seed,
    numRuns: options.numRuns,
    capabilities: hook ? [...hook.capabilities] : [],
    hookContract: hook?.contract,
    hookProblem,
    fieldsUsed: { ...parts.partner.fieldsUsed, ...(parts.otherPartner?.fieldsUsed ?? {}) },
    rules: selection.rules.map((id) => evidence.get(id)!.finalise()),
    tests: outcomes,
    deadline: deadlineHit ? { seconds: target.runDeadlineS } : undefined,
    interrupted: interrupt?.signal !== undefined ? { signal: interrupt.signal } : undefined,
    tokens: ledger.report(),
    passwordRefused: parts.web.guard.refusedAt,
    passwordRefusedCode: parts.web.guard.refusedCode,
    notes: passwordNotes(target, hook),
  };
}

function contextParts(options: RunOptions, hook: ContextParts['hook'], ledger: TokenLedger): ContextParts {
  const { target, http, redactor, transcript } = options;
  const names = new Names(options.runId, options.seed);
  const identity = new IdentityClient(http, redactor, target.identityUrl, target.clientId, ledger);
  const readers = new Readers(hook, names, target.userEmail);
  const host = new BrowserHost(target.browser, Math.max(5_000, target.requestTimeoutMs), options.browser);
  const web = new Web(target, host, redactor, hook, readers, names, ledger);
  return {
    target,
    partner: new PartnerClient(http, redactor, target.baseUrl, target.partner, target),
    otherPartner: target.otherBaseUrl && target.otherPartner ? new PartnerClient(http, redactor, target.otherBaseUrl, target.otherPartner, target) : undefined,
    partnerAtOther: target.otherBaseUrl ? new PartnerClient(http, redactor, target.otherBaseUrl, target.partner, target) : undefined,
    identity,
    api: new ApiClient(http),
    hook,
    tokens: new TokenSource(identity, hook, names, target.tenant, target.hookless, readers, ledger, new PageTokens(web)),
    readers,
    web,
    names,
    redactor,
    transcript,
    fc: { seed: options.seed, numRuns: options.numRuns, path: options.path },
    runId: options.runId,
  };
}

/**
 * Adds what one test found to the evidence of each selected rule it declares. A declared rule the
 * test recorded nothing on (no check, no part not seen, no observation) was not checked by it,
 * however the test ended: stopped by a failed check (`error` when no other test checked the rule),
 * gone on or returned early after a soft failure, or ended without reaching it (the rule is at best
 * `skipped`, partly checked). The marking never depends on the test reaching its end.
 */
function collect(evidence: Map<RuleId, RuleEvidence>, { outcome, context, stoppedAt }: TestRun, relevant: readonly RuleId[]): void {
  const softFailure = context.checks.find((c) => !c.ok);
  for (const r of relevant) {
    const e = evidence.get(r)!;
    e.tests.push(outcome.id);
    e.durationMs += outcome.durationMs;
    const mine = context.checks.filter((c) => c.rule === r);
    if (outcome.status === 'error') {
      e.errors.push(`${outcome.id}: ${outcome.reason}`);
      e.errorTests.push(outcome.id);
    } else if (outcome.status === 'failed' && stoppedAt !== undefined) {
      const stopped = { test: outcome.id, stoppedAt, reason: outcome.reason };
      if (mine.length === 0) e.unreached.push({ ...stopped, before: 'any' });
      else if (mine.every((c) => c.ok)) e.unfinished.push({ ...stopped, before: 'the-rest' });
    } else if (mine.length === 0 && !context.unverifiedParts.some((u) => u.rule === r) && !context.observations.some((o) => o.rule === r)) {
      if (softFailure !== undefined) {
        const reason = `${softFailure.rule}: ${softFailure.title}: expected ${softFailure.expected}, got ${softFailure.actual}`;
        e.unfinished.push({ test: outcome.id, stoppedAt: softFailure.rule, reason, before: 'after-failure' });
      } else e.unverified.push({ id: `${outcome.id}/${r}/not-checked`, rule: r, title: outcome.id, reason: 'the test ended without checking it' });
    }
  }
  for (const c of context.checks) evidence.get(c.rule)?.checks.push(c);
  for (const o of context.observations) evidence.get(o.rule)?.observations.push(o.text);
  for (const u of context.unverifiedParts) evidence.get(u.rule)?.unverified.push(u);
}
