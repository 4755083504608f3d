/**
 * Runs tests against one target and turns their checks into one verdict per rule.
 *
 * Tests run one after another: the target's clock is global and only moves forward, so two tests
 * at once would see each other's time travel. Every test mints what it needs after the last clock
 * move it makes.
 */
import { getRule, RULES, type RuleId } from '../rules/catalog.js';
import { ApiClient } from './clients/api.js';
import { HookClient } from './clients/hook.js';
import { IdentityClient } from './clients/identity.js';
import { PartnerClient } from './clients/partner.js';
import { CheckFailed, errorText, TestContext } from './context.js';
import { isTackError, TackError } from './errors.js';
import type { HttpClient } from './http.js';
import { Names } from './names.js';
import type { Redactor } from './redactor.js';
import { TokenSource } from './tokens.js';
import type { Transcript } from './transcript.js';
import type { Capability, CheckResult, Need, RuleResult, Status, TargetConfig, TestCase } from './types.js';

export interface RunOptions {
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
  readonly onRule?: (result: RuleResult) => void;
  readonly onTest?: (test: TestCase, phase: 'start' | 'end') => void;
  /** Per-test time limit. */
  readonly testTimeoutMs?: number;
  /**
   * Whole-run deadline (ms since the epoch, by the real clock). When it passes, the running test is
   * abandoned and no further test starts; their rules are reported `error` (TACK_ERR_RUN_DEADLINE),
   * and the result is returned as usual so the reports are still written.
   */
  readonly deadlineAt?: number;
}

export interface TestOutcome {
  readonly id: string;
  readonly title: string;
  readonly rules: readonly RuleId[];
  readonly status: 'passed' | 'failed' | 'skipped' | 'error';
  readonly reason: string;
  readonly durationMs: number;
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
}

export async function runConformance(options: RunOptions): Promise<RunResult> {
  const startedAt = new Date();
  const { target, http, redactor, transcript } = options;
  const names = new Names(options.runId, options.seed);
  const identity = new IdentityClient(http, redactor, target.identityUrl, target.clientId);
  const partner = new PartnerClient(http, redactor, target.baseUrl, target.partner, target);
  const otherPartner = target.otherBaseUrl && target.otherPartner ? new PartnerClient(http, redactor, target.otherBaseUrl, target.otherPartner, target) : undefined;
  const partnerAtOther = target.otherBaseUrl ? new PartnerClient(http, redactor, target.otherBaseUrl, target.partner, target) : undefined;

  let hook: HookClient | undefined;
  let hookProblem: string | undefined;
  if (target.hook) {
    const client = new HookClient(http, target.hook.url, target.hook.token);
    transcript.setTest('hook-discovery');
    try {
      await client.discover();
      hook = client;
    } catch (error) {
      hookProblem = redactor.redact(errorText(error));
    }
  }
  const tokens = new TokenSource(identity, hook, names, target.tenant, target.hookless);
  const parts = {
    target,
    partner,
    otherPartner,
    partnerAtOther,
    identity,
    api: new ApiClient(http),
    hook,
    tokens,
    names,
    redactor,
    transcript,
    fc: { seed: options.seed, numRuns: options.numRuns, path: options.path },
    runId: options.runId,
  };

  const wanted = new Set(options.only);
  const selectedRules = RULES.filter((r) => wanted.size === 0 || wanted.has(r.id)).map((r) => r.id as RuleId);
  const selected = new Set<RuleId>(selectedRules);
  const tests = options.tests.filter((t) => t.rules.some((r) => selected.has(r)));
  const lastTestOf = new Map<RuleId, number>();
  tests.forEach((t, i) => t.rules.forEach((r) => lastTestOf.set(r, i)));

  const acc = new Map<RuleId, Accumulator>(selectedRules.map((id) => [id, { checks: [], observations: [], skips: [], errors: [], unreached: [], tests: [], durationMs: 0 }]));
  const outcomes: TestOutcome[] = [];
  const emitted = new Set<RuleId>();
  const emit = (id: RuleId) => {
    if (emitted.has(id)) return;
    emitted.add(id);
    options.onRule?.(finalise(id, acc.get(id)!));
  };
  // Rules no test covers are reported now, so nothing is silently dropped.
  for (const id of selectedRules) if (!lastTestOf.has(id)) acc.get(id)!.skips.push('no test in this version of tack covers it');

  let deadlineReason: string | undefined;
  for (const [index, test] of tests.entries()) {
    const relevant = test.rules.filter((r) => selected.has(r));
    const missing = unmetNeeds(test.needs, target, hook, hookProblem);
    const started = performance.now();
    const left = options.deadlineAt === undefined ? Infinity : options.deadlineAt - Date.now();
    if (deadlineReason !== undefined || left <= 0) {
      deadlineReason ??= deadlineText(target);
      for (const r of relevant) acc.get(r)!.errors.push(`${test.id} not run: ${deadlineReason}`);
      outcomes.push({ id: test.id, title: test.title, rules: relevant, status: 'error', reason: `not run: ${deadlineReason}`, durationMs: 0 });
    } else if (missing.length > 0) {
      const reason = missing.join('; ');
      for (const r of relevant) acc.get(r)!.skips.push(reason);
      outcomes.push({ id: test.id, title: test.title, rules: relevant, status: 'skipped', reason, durationMs: 0 });
    } else {
      options.onTest?.(test, 'start');
      transcript.setTest(test.id);
      const context = new TestContext(parts, test.id);
      let status: TestOutcome['status'] = 'passed';
      let reason = '';
      try {
        const testTimeoutMs = options.testTimeoutMs ?? 120_000;
        if (left < testTimeoutMs) {
          await withTimeout(test.run(context), left, test.id, () => new TackError('TACK_ERR_RUN_DEADLINE', (deadlineReason = deadlineText(target))));
        } else {
          await withTimeout(test.run(context), testTimeoutMs, test.id);
        }
      } catch (error) {
        if (isTackError(error, 'TACK_ERR_TIMEOUT') || isTackError(error, 'TACK_ERR_RUN_DEADLINE')) context.abandon();
        if (error instanceof CheckFailed) {
          status = 'failed';
          reason = redactor.redact(error.message);
        } else {
          status = 'error';
          reason = redactor.redact(isTackError(error) ? `${error.code}: ${error.message}` : errorText(error));
        }
      } finally {
        transcript.setTest(undefined);
      }
      const durationMs = performance.now() - started;
      for (const r of relevant) {
        const a = acc.get(r)!;
        a.tests.push(test.id);
        a.durationMs += durationMs;
        if (status === 'error') a.errors.push(`${test.id}: ${reason}`);
        else if (status === 'failed' && !context.checks.some((c) => c.rule === r)) a.unreached.push(`${test.id} stopped before checking it: ${reason}`);
      }
      for (const c of context.checks) acc.get(c.rule)?.checks.push(c);
      for (const o of context.observations) acc.get(o.rule)?.observations.push(o.text);
      outcomes.push({ id: test.id, title: test.title, rules: relevant, status, reason, durationMs: Math.round(durationMs) });
      options.onTest?.(test, 'end');
    }
    for (const r of relevant) if (lastTestOf.get(r) === index) emit(r);
  }
  for (const id of selectedRules) emit(id);
  await tokens.close(); // hookless mode: releases the token file's lock

  const fieldsUsed = { ...partner.fieldsUsed, ...(otherPartner?.fieldsUsed ?? {}) };
  return {
    runId: options.runId,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    seed: options.seed,
    numRuns: options.numRuns,
    capabilities: hook ? [...hook.capabilities] : [],
    hookContract: hook?.contract,
    hookProblem,
    fieldsUsed,
    rules: selectedRules.map((id) => finalise(id, acc.get(id)!)),
    tests: outcomes,
  };
}

interface Accumulator {
  checks: CheckResult[];
  observations: string[];
  skips: string[];
  errors: string[];
  unreached: string[];
  tests: string[];
  durationMs: number;
}

function finalise(id: RuleId, a: Accumulator): RuleResult {
  const rule = getRule(id)!;
  const failed = a.checks.filter((c) => !c.ok);
  let status: Status;
  let reason: string;
  if (failed.length > 0) {
    status = rule.level === 'MUST' ? 'failed' : 'warning';
    const f = failed[0]!;
    reason = `${f.title}: expected ${f.expected}, got ${f.actual}`;
  } else if (a.errors.length > 0) {
    // A test that could not finish leaves the rule unproven, even if earlier checks passed.
    status = 'error';
    reason = a.errors[0]!;
  } else if (a.checks.length > 0) {
    status = 'passed';
    reason = `${a.checks.length} check${a.checks.length === 1 ? '' : 's'} passed`;
  } else if (a.unreached.length > 0) {
    status = 'error';
    reason = a.unreached[0]!;
  } else if (a.skips.length > 0) {
    status = 'skipped';
    reason = [...new Set(a.skips)].join('; ');
  } else {
    status = 'error';
    reason = 'no check gave a verdict (a test stopped before reaching it)';
  }
  return {
    id,
    level: rule.level,
    area: rule.area,
    section: rule.section,
    text: rule.text,
    status,
    reason,
    durationMs: Math.round(a.durationMs),
    checks: a.checks,
    observations: [...new Set(a.observations)],
    tests: a.tests,
  };
}

/** Why a test cannot run here: each missing variable or capability, named. */
export function unmetNeeds(needs: readonly Need[], target: TargetConfig, hook: HookClient | undefined, hookProblem: string | undefined): string[] {
  const out: string[] = [];
  const hookMissing = (capability: string) => {
    if (!target.hook) return `needs the test hook (TACK_HOOK_URL, TACK_HOOK_TOKEN) with the ${capability} capability`;
    if (!hook) return `needs the test hook, which is not usable: ${hookProblem ?? 'unknown problem'}`;
    return `the target's test hook does not offer the ${capability} capability`;
  };
  for (const need of needs) {
    switch (need) {
      case 'partner':
        if (!target.partner) out.push("needs tenant A's partner key (TACK_PARTNER_CLIENT_ID, TACK_PARTNER_SECRET)");
        break;
      case 'other-tenant':
        if (!target.otherBaseUrl) out.push("needs tenant B's host (TACK_OTHER_BASE_URL)");
        break;
      case 'other-partner':
        if (!target.otherPartner || !target.otherBaseUrl) out.push("needs tenant B's partner key (TACK_OTHER_BASE_URL, TACK_OTHER_PARTNER_CLIENT_ID, TACK_OTHER_PARTNER_SECRET)");
        break;
      case 'api-token': {
        const fromHook = hook?.has('users') && hook.has('api-tokens');
        if (!fromHook && !target.hookless) {
          out.push('needs a personal API token: the test hook with the users and api-tokens capabilities (TACK_HOOK_URL, TACK_HOOK_TOKEN), or TACK_USER_EMAIL with TACK_API_TOKEN_FILE');
        }
        break;
      }
      default: {
        const capability = need.slice('hook:'.length) as Capability;
        if (!hook?.has(capability)) out.push(hookMissing(capability));
      }
    }
  }
  return [...new Set(out)];
}

function deadlineText(target: TargetConfig): string {
  return `the run did not finish within ${target.runDeadlineS} s (TACK_RUN_DEADLINE_S)`;
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string, onTimeout?: () => TackError): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout?.() ?? new TackError('TACK_ERR_TIMEOUT', `test ${what} did not finish within ${Math.round(ms / 1000)} s`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * 0: every MUST holds; 1: a MUST failed (or a SHOULD, with --strict); 2: a rule could not be checked
 * for errors, or the configured test hook cannot be used (TACK_ERR_HOOK: a wrong TACK_HOOK_TOKEN is a
 * configuration error, not a smaller run that passes); 3: nothing checked.
 */
export function exitCodeOf(result: RunResult, strict: boolean): number {
  const statuses = result.rules.map((r) => r.status);
  if (statuses.includes('failed') || (strict && statuses.includes('warning'))) return 1;
  if (statuses.includes('error') || result.hookProblem !== undefined) return 2;
  if (!statuses.some((s) => s === 'passed' || s === 'warning')) return 3;
  return 0;
}
