/**
 * Judging a client: every judge of the profile over every scenario that exercises its rule, and one
 * verdict per rule from what they found (the same precedence as `tack run`: failed, then error,
 * then unverified, then passed; skipped with the reason when nothing exercised the rule).
 *
 * A scenario whose run did nothing (sent no request, could not start) is not judged: its rules get
 * an `error` saying so, never a pass. A run tack had to stop (it hung, or flooded the server) gives
 * its scenario's rules an `error` too, but what it did before is still judged: a failure wins.
 */
import { RuleEvidence } from '../../src/runner/rule-verdict.js';
import type { TestOutcome } from '../../src/runner/one-test.js';
import type { RuleId } from '../../src/rules/catalog.js';
import type { ObservedRun, Profile, ScenarioEvidence } from './evidence.js';
import type { ClientJudge, Verdicts } from './judge.js';
import { bearer } from './judges/bearer.js';
import { exchangeForm } from './judges/exchange-form.js';
import { exitStatus } from './judges/exit-status.js';
import { no403Loop } from './judges/no-403-loop.js';
import { noSecret } from './judges/no-secret.js';
import { noTokenInUrl } from './judges/no-token-in-url.js';
import { partnerHeaders } from './judges/partner-headers.js';
import { partnerJson } from './judges/partner-json.js';
import { refreshSameHost } from './judges/refresh-same-host.js';
import { retryOnce } from './judges/retry-once.js';
import { reuse } from './judges/reuse.js';
import { secretsNotLogged } from './judges/secrets-not-logged.js';
import { stopsOnInvalidGrant } from './judges/stops-on-invalid-grant.js';
import { storesRotated } from './judges/stores-rotated.js';
import type { ScenarioId, ScenarioPlan } from './scenarios.js';
import type { CheckResult, RuleResult } from '../../src/runner/results.js';
import { plural } from '../../src/text/plural.js';
import type { ObservedRequest } from '../../src/checks/observed-request.js';

export const CLIENT_JUDGES: readonly ClientJudge[] = [
  exchangeForm,
  noSecret,
  bearer,
  retryOnce,
  storesRotated,
  reuse,
  stopsOnInvalidGrant,
  no403Loop,
  secretsNotLogged,
  noTokenInUrl,
  partnerHeaders,
  partnerJson,
  refreshSameHost,
  exitStatus,
];

/** Most requests a check points at in the reports. */
const MAX_EVIDENCE = 24;

export function judgesOf(profile: Profile): ClientJudge[] {
  return CLIENT_JUDGES.filter((j) => j.profiles.includes(profile));
}

/** The rules a scenario exercises for a profile. */
export function rulesOf(profile: Profile, scenario: ScenarioId): RuleId[] {
  return judgesOf(profile)
    .filter((j) => j.scenarios === undefined || j.scenarios.includes(scenario))
    .map((j) => j.rule);
}

/** One scenario as played: its evidence, or why it was not played at all. */
export interface PlayedScenario {
  readonly plan: ScenarioPlan;
  readonly evidence: ScenarioEvidence | undefined;
  /** Set when the scenario was not played (the deadline passed, the server did not start). */
  readonly notPlayed: string | undefined;
  /** The limits it ran under, for the error texts. */
  readonly limits: { readonly runTimeoutS: number; readonly maxRequests: number };
  readonly durationMs: number;
}

export interface Judgement {
  readonly rules: RuleResult[];
  readonly tests: TestOutcome[];
}

export function judgeClient(profile: Profile, played: readonly PlayedScenario[], redact: (text: string) => string): Judgement {
  const judges = judgesOf(profile);
  const evidence = new Map<RuleId, RuleEvidence>(judges.map((j) => [j.rule, new RuleEvidence(j.rule)]));
  const tests: TestOutcome[] = [];
  for (const scenario of played) {
    const test = `client/${scenario.plan.id}`;
    const rules = rulesOf(profile, scenario.plan.id);
    const problems: Problem[] =
      scenario.evidence === undefined
        ? [{ text: `not played: ${scenario.notPlayed ?? 'unknown reason'}`, inert: true }]
        : problemsOf(scenario.evidence.runs, scenario.limits);
    for (const rule of rules) {
      const e = evidence.get(rule)!;
      e.tests.push(test);
      e.durationMs += scenario.durationMs;
      for (const problem of problems) e.errors.push(redact(`${test}: ${problem.text}`));
    }
    const inert = problems.some((p) => p.inert);
    if (scenario.evidence !== undefined && !inert) {
      for (const judge of judges.filter((j) => rules.includes(j.rule))) {
        judge.judge(scenario.evidence, verdicts(evidence.get(judge.rule)!, scenario.plan.id, redact));
      }
    }
    tests.push(
      outcomeOf(
        test,
        scenario,
        rules,
        evidence,
        problems.map((p) => p.text),
        redact,
      ),
    );
  }
  for (const judge of judges) {
    const e = evidence.get(judge.rule)!;
    if (e.checks.length === 0 && e.errors.length === 0 && e.unverified.length === 0) e.skips.push(judge.notExercised);
  }
  return { rules: judges.map((j) => evidence.get(j.rule)!.finalise()), tests };
}

interface Problem {
  readonly text: string;
  /** The client did nothing in this run: nothing of the scenario can be judged. */
  readonly inert: boolean;
}

/** What went wrong with the runs themselves: the client did nothing, hung, or flooded. */
function problemsOf(runs: readonly ObservedRun[], limits: PlayedScenario['limits']): Problem[] {
  const out: Problem[] = [];
  for (const run of runs) {
    const n = run.index;
    if (run.end === 'not-started') out.push({ text: `run ${n} could not be started: ${run.startProblem ?? 'unknown reason'}`, inert: true });
    else if (run.end === 'timed-out') {
      const sent = run.requests.length === 0 ? 'without sending any request' : `after ${plural(run.requests.length, 'request')}`;
      out.push({ text: `run ${n} did not finish within ${limits.runTimeoutS} s and was stopped (${sent}; --run-timeout)`, inert: run.requests.length === 0 });
    } else if (run.end === 'cut-off') {
      out.push({ text: `run ${n} sent more than ${limits.maxRequests} requests and was cut off (--max-requests)`, inert: false });
    } else if (run.requests.length === 0) {
      out.push({ text: `run ${n} sent no request and exited with ${run.exitCode ?? run.signal}: the client did nothing`, inert: true });
    }
  }
  return out;
}

/** Records under one rule, for one scenario; titles name the scenario, every text is redacted. */
function verdicts(e: RuleEvidence, scenario: string, redact: (text: string) => string): Verdicts {
  const test = `client/${scenario}`;
  return {
    check(title, found, requests: readonly ObservedRequest[] = []) {
      const seqs = [...new Set(requests.map((r) => r.seq))].sort((a, b) => a - b).slice(0, MAX_EVIDENCE);
      const text = { title: redact(`${scenario}: ${title}`), expected: redact(found.expected), actual: redact(found.actual) };
      const result: CheckResult = { rule: e.id, test, ...text, ok: found.ok, exchanges: seqs };
      e.checks.push(result);
    },
    unverified(title, reason) {
      e.unverified.push({ rule: e.id, title: redact(`${scenario}: ${title}`), reason: redact(reason) });
    },
  };
}

function outcomeOf(
  test: string,
  scenario: PlayedScenario,
  rules: readonly RuleId[],
  evidence: ReadonlyMap<RuleId, RuleEvidence>,
  problems: readonly string[],
  redact: (text: string) => string,
): TestOutcome {
  const failed = rules.flatMap((r) => evidence.get(r)!.checks.filter((c) => c.test === test && !c.ok));
  const first = failed[0];
  const status = first !== undefined ? 'failed' : problems.length > 0 ? 'error' : 'passed';
  const reason = first !== undefined ? `${first.rule}: ${first.title}: expected ${first.expected}, got ${first.actual}` : (problems[0] ?? '');
  return { id: test, title: scenario.plan.title, rules, status, reason: redact(reason), durationMs: Math.round(scenario.durationMs) };
}
