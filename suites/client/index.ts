/**
 * Judging a client: every judge of the profile over every scenario that exercises its rule, and one
 * verdict per rule from what they found (the same precedence as `tack run`: failed, then error,
 * then unverified, then passed; skipped with the reason when nothing exercised the rule).
 *
 * What went wrong with the runs themselves is recorded on every rule of the scenario: a run that
 * did nothing (sent no request, could not start) or hung is an `error`; a run tack cut off for
 * flooding leaves the rules `unverified`, so its real failure (a retry loop) comes first. Whatever
 * the runs did is judged all the same, and a failure wins; a run that gave up before its work is no
 * evidence that a rule holds (each judge sees to it), so a client that did nothing never passes.
 */
import { RuleEvidence } from '../../src/runner/rule-verdict.js';
import type { TestOutcome } from '../../src/runner/results.js';
import { getRule, type RuleId } from '../../src/rules/catalog.js';
import { earlyEnds, type ObservedRun, type Profile, type ScenarioEvidence } from './evidence.js';
import type { ClientJudge, Verdicts } from './judge.js';
import { bearer } from './judges/bearer.js';
import { completesWork } from './judges/completes-work.js';
import { exchangeForm } from './judges/exchange-form.js';
import { exitStatus } from './judges/exit-status.js';
import { keepsApiToken } from './judges/keeps-api-token.js';
import { no403Loop } from './judges/no-403-loop.js';
import { noOrigin } from './judges/no-origin.js';
import { noSecret } from './judges/no-secret.js';
import { noTokenInUrl } from './judges/no-token-in-url.js';
import { partnerHeaders } from './judges/partner-headers.js';
import { partnerJson } from './judges/partner-json.js';
import { partnerKeyAdminOnly } from './judges/partner-key-admin-only.js';
import { refreshSameHost } from './judges/refresh-same-host.js';
import { retryOnce } from './judges/retry-once.js';
import { reuse } from './judges/reuse.js';
import { secretsNotLogged } from './judges/secrets-not-logged.js';
import { stopsOnInvalidGrant } from './judges/stops-on-invalid-grant.js';
import { storesRotated } from './judges/stores-rotated.js';
import { tokenFileSafe } from './judges/token-file-safe.js';
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
  keepsApiToken,
  noOrigin,
  partnerKeyAdminOnly,
  tokenFileSafe,
  // Last: it asks which other rules failed on a run (Verdicts.otherFailures).
  completesWork,
];

/** Most requests a check points at in the reports. */
const MAX_EVIDENCE = 24;
/** Characters of a client's output a finding shows (its end). */
const OUTPUT_SHOWN = 300;

function judgesOf(profile: Profile): ClientJudge[] {
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

interface Judgement {
  readonly rules: RuleResult[];
  readonly tests: TestOutcome[];
}

/** How texts leave the judges: `text` for tack's own words, `output` for the client's output (token-like words masked too). */
export interface Redaction {
  readonly text: (text: string) => string;
  readonly output: (text: string) => string;
}

export function judgeClient(profile: Profile, played: readonly PlayedScenario[], redact: Redaction | ((text: string) => string)): Judgement {
  const redaction = typeof redact === 'function' ? { text: redact, output: redact } : redact;
  const judges = judgesOf(profile);
  const evidence = new Map<RuleId, RuleEvidence>(judges.map((j) => [j.rule, new RuleEvidence(j.rule)]));
  const tests: TestOutcome[] = [];
  for (const scenario of played) {
    const test = `client/${scenario.plan.id}`;
    const rules = rulesOf(profile, scenario.plan.id);
    const problems: Problem[] =
      scenario.evidence === undefined
        ? [{ text: `not played: ${scenario.notPlayed ?? 'unknown reason'}`, kind: 'error' }]
        : problemsOf(scenario.evidence.runs, scenario.limits);
    for (const rule of rules) {
      const e = evidence.get(rule)!;
      e.tests.push(test);
      e.durationMs += scenario.durationMs;
      for (const problem of problems) {
        const text = redaction.text(`${test}: ${problem.text}`);
        if (problem.kind === 'error') {
          e.errors.push(text);
          e.errorTests.push(test);
        } else {
          const title = redaction.text(`${scenario.plan.id}: run ${problem.run}`);
          e.unverified.push({ id: `${test}/${rule}/unverified/run-${problem.run}`, rule, title, reason: redaction.text(problem.text) });
        }
      }
    }
    if (scenario.evidence !== undefined) {
      const failedOn = new Map<number, Set<RuleId>>();
      for (const judge of judges.filter((j) => rules.includes(j.rule))) {
        judge.judge(scenario.evidence, verdicts(evidence.get(judge.rule)!, scenario.evidence, redaction, failedOn));
      }
    }
    tests.push(outcomeOf(test, scenario, rules, evidence, problems, redaction.text));
  }
  const scenarios = played.flatMap((p) => p.evidence ?? []);
  for (const judge of judges) {
    const e = evidence.get(judge.rule)!;
    if (e.checks.length === 0 && e.errors.length === 0 && e.unverified.length === 0) {
      e.skips.push(redaction.text(notExercised(judge, scenarios)));
      e.skipIds.push(`client/${judge.rule}/not-exercised`);
    }
  }
  return { rules: judges.map((j) => evidence.get(j.rule)!.finalise()), tests };
}

/** The judge's reason, and the runs of its scenarios that gave up before their work, as they ended. */
function notExercised(judge: ClientJudge, scenarios: readonly ScenarioEvidence[]): string {
  const judged = scenarios.filter((s) => judge.scenarios === undefined || judge.scenarios.includes(s.id as ScenarioId));
  const reason = typeof judge.notExercised === 'string' ? judge.notExercised : judge.notExercised(judged);
  const early = earlyEnds(judged);
  if (early.length === 0) return reason;
  return `${reason}; runs that gave up before their work: ${early.slice(0, 3).join('; ')}${early.length > 3 ? `; and ${early.length - 3} more` : ''}`;
}

interface Problem {
  readonly text: string;
  /** `error`: the run did nothing, or hung; `unverified`: it was cut off (what it sent is judged, the rest not seen). */
  readonly kind: 'error' | 'unverified';
  readonly run?: number;
}

/** What went wrong with the runs themselves: the client did nothing, hung, or flooded. */
function problemsOf(runs: readonly ObservedRun[], limits: PlayedScenario['limits']): Problem[] {
  const out: Problem[] = [];
  for (const run of runs) {
    const n = run.index;
    if (run.end === 'not-started') out.push({ text: `run ${n} could not be started: ${run.startProblem ?? 'unknown reason'}`, kind: 'error' });
    else if (run.end === 'timed-out') {
      const sent = run.requests.length === 0 ? 'without sending any request' : `after ${plural(run.requests.length, 'request')}`;
      out.push({ text: `run ${n} did not finish within ${limits.runTimeoutS} s and was stopped (${sent}; --run-timeout)`, kind: 'error' });
    } else if (run.end === 'cut-off') {
      const text = `run ${n} sent more than ${limits.maxRequests} requests and was cut off (--max-requests): the rest of it was not seen`;
      out.push({ text, kind: 'unverified', run: n });
    } else if (run.requests.length === 0) {
      out.push({ text: `run ${n} sent no request and exited with ${run.exitCode ?? run.signal}: the client did nothing`, kind: 'error' });
    }
  }
  return out;
}

/** Records under one rule, for one scenario; titles name the scenario, every text is redacted. */
function verdicts(e: RuleEvidence, scenario: ScenarioEvidence, redaction: Redaction, failedOn: Map<number, Set<RuleId>>): Verdicts {
  const test = `client/${scenario.id}`;
  const redact = redaction.text;
  /** The places of the judge's next check and part not seen in this scenario: their ids, as the runner's (what a baseline waives). */
  let place = 0;
  let unseen = 0;
  return {
    check(title, found, requests: readonly ObservedRequest[] = [], run?: number) {
      const seqs = [...new Set(requests.map((r) => r.seq))].sort((a, b) => a - b).slice(0, MAX_EVIDENCE);
      const text = { title: redact(`${scenario.id}: ${title}`), expected: redact(found.expected), actual: redact(found.actual) };
      const result: CheckResult = { id: `${test}/${e.id}/${++place}`, rule: e.id, test, ...text, ok: found.ok, exchanges: seqs };
      e.checks.push(result);
      if (!found.ok) {
        for (const n of new Set([...requests.map((r) => r.run), ...(run === undefined ? [] : [run])])) {
          failedOn.set(n, (failedOn.get(n) ?? new Set()).add(e.id));
        }
      }
    },
    unverified(title, reason) {
      e.unverified.push({ id: `${test}/${e.id}/unverified/${++unseen}`, rule: e.id, title: redact(`${scenario.id}: ${title}`), reason: redact(reason) });
    },
    shown(output) {
      const line = redaction.output(output).replace(/\s+/g, ' ').trim();
      return line.length > OUTPUT_SHOWN ? `…${line.slice(-OUTPUT_SHOWN)}` : line;
    },
    otherFailures(run) {
      // A warning never explains a MUST: only failed MUST rules count.
      return [...(failedOn.get(run) ?? [])].filter((rule) => rule !== e.id && getRule(rule)?.level === 'MUST');
    },
  };
}

function outcomeOf(
  test: string,
  scenario: PlayedScenario,
  rules: readonly RuleId[],
  evidence: ReadonlyMap<RuleId, RuleEvidence>,
  problems: readonly Problem[],
  redact: (text: string) => string,
): TestOutcome {
  const failed = rules.flatMap((r) => evidence.get(r)!.checks.filter((c) => c.test === test && !c.ok));
  const first = failed[0];
  const status = first !== undefined ? 'failed' : problems.length > 0 ? 'error' : 'passed';
  const reason = first !== undefined ? `${first.rule}: ${first.title}: expected ${first.expected}, got ${first.actual}` : (problems[0]?.text ?? '');
  return { id: test, title: scenario.plan.title, rules, status, reason: redact(reason), durationMs: Math.round(scenario.durationMs) };
}
