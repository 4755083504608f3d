/**
 * The fault matrix: with each reference fault, a full run reports exactly the rules the fault names
 * as failed (warning, for a SHOULD), every other rule as it does without the fault, and only the
 * rules of the fault's declared collateral (each with its reason) may differ. Conformant variants
 * change nothing at all. Run in every mode users run (test/helpers/modes.ts); in a mode where a
 * rule is not checked (skipped in the clean run), a fault on it may fail it or leave it skipped, but
 * never turn it into a pass.
 *
 * These matrices run without a browser (TACK_BROWSER names none, as on a machine without
 * Chromium): every fault, the token page's included, is shown to change no rule that needs no
 * browser. The browser's rules have their own matrix (fault-matrix-token-page.ts), because a run with
 * the browser costs several times one without.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/runner/index.js';
import { FAULTS, type FaultInfo } from '../../src/reference/faults.js';
import { getRule, type RuleId } from '../../src/rules/catalog.js';
import { NO_BROWSER, targetFor, type Mode } from '../helpers/modes.js';
import type { RulePlan } from '../../src/runner/selection.js';
import { checkedRules, planFor, runAgainstReference } from '../helpers/reference-run.js';
import type { Status } from '../../src/runner/results.js';

/**
 * Runs per property: fewer than tack run's 12, so that some 300 full runs stay affordable. With the
 * fixed seed the outcome is the same every time; test/suites/sign-in/model.test.ts shows the
 * property's power over many seeds against simulated servers.
 */
const MATRIX_RUNS = 4;

/** Fault runs at once in one file (each its own reference server). */
const CONCURRENT_RUNS = 3;

/**
 * `TACK_MATRIX_FAULTS=a,b`: only these faults, for a focused run
 * (`TACK_MATRIX_FAULTS=revoke-no-op npx vitest run test/acceptance/fault-matrix-hook-1.test.ts`).
 */
export const ONLY_FAULTS = process.env['TACK_MATRIX_FAULTS'] ? new Set(process.env['TACK_MATRIX_FAULTS'].split(',').map((s) => s.trim())) : undefined;

/** Starts at most `limit` of the jobs given to it at a time, in order. */
export function limited(limit: number): <T>(job: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(job: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await job();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/** Rules judged by the malformed-request sweeps, which need the partner key at most: the same requests in every mode. */
const SWEPT_ALIKE = new Set<RuleId>(['PARTNER-NO-SERVER-ERROR', 'SIGNIN-NO-SERVER-ERROR', 'SEARCH-NO-SERVER-ERROR']);

const TIME_RULES = new Set<RuleId>(['ACCESS-TOKEN-LIFETIME', 'SIGNIN-IDLE-EXPIRY', 'SIGNIN-IDLE-RESET', 'SIGNIN-ABSOLUTE-EXPIRY', 'SIGNIN-LIFECYCLE']);

export interface RunSettings {
  /** Run the browser's tests (default: no browser). */
  readonly browser?: boolean;
  /** Only these rules (and the tests judging them); all when absent. */
  readonly only?: readonly string[];
}

export async function runInMode(mode: Mode, faults: readonly string[], settings: RunSettings = {}): Promise<RunResult> {
  return (await runAndPlan(mode, faults, settings)).result;
}

/** A run in `mode`, and what `tack doctor` foresaw for it (the runner's own plan, made before it). */
export async function runAndPlan(mode: Mode, faults: readonly string[], settings: RunSettings = {}): Promise<{ result: RunResult; plan: RulePlan[] }> {
  const { server, env } = await targetFor(mode, faults);
  const runEnv = settings.browser ? env : { ...env, TACK_BROWSER: NO_BROWSER };
  try {
    const plan = await planFor(runEnv, settings.only ?? []);
    return { plan, result: await runAgainstReference({ env: runEnv, runs: MATRIX_RUNS, only: settings.only ?? [] }) };
  } finally {
    await server.close();
  }
}

/** The rules whose verdict rests on a user who reads something: never passed by a hook without businesses and access. */
const READER_RULES: readonly RuleId[] = [
  'PARTNER-MINT',
  'PARTNER-REFRESH',
  'PARTNER-USER-PERMISSIONS',
  'PARTNER-TENANT-NARROWING',
  'ACCESS-TOKEN-LIFETIME',
  'SEARCH-SHAPE',
  'SEARCH-ONLY-READABLE',
  'SEARCH-PERMISSION-REMOVAL',
  'SEARCH-NON-MEMBER',
  'SEARCH-TENANT-FROM-HOST',
];

/**
 * Rules `other` checks (passed, or partly: skipped after checks that passed) and judges otherwise
 * than `base`: another status, or other checks (their titles). A fault on one of them is worth a run.
 */
function judgedOtherwise(base: RunResult, other: RunResult): Set<RuleId> {
  const titles = (r: RunResult['rules'][number]) => `${r.status}\n${r.checks.map((c) => c.title).join('\n')}`;
  const before = new Map(base.rules.map((r) => [r.id, titles(r)]));
  const checked = (r: RunResult['rules'][number]) => r.status === 'passed' || (r.status === 'skipped' && r.checks.length > 0);
  return new Set(other.rules.filter((r) => checked(r) && before.get(r.id) !== titles(r)).map((r) => r.id));
}

export function statuses(result: RunResult): Map<RuleId, Status> {
  return new Map(result.rules.map((r) => [r.id, r.status]));
}

/** A conformant way of building the token page (e.g. one that redeems its code server-side): every page rule must pass. */
export const isPageVariant = (f: FaultInfo): boolean => f.conformant === true && f.name.startsWith('token-page-');

/**
 * Why a fault is not worth a run in `mode` (undefined: it is): with the hook every one is; elsewhere
 * those with a rule the mode checks. The matrix skips the others saying why, so the count of real
 * assertions is what the report shows.
 */
function notApplicable(mode: Mode, fault: FaultInfo, clean: Map<RuleId, Status>, changed: ReadonlySet<RuleId>): string | undefined {
  // A race of the token store (a fault or a variant): only tokens tack owns meet its window and its reuse policy.
  if (fault.storeDelayMs !== undefined && mode !== 'hook') {
    if (mode === 'max-tolerance') return 'the tolerances change only the time rules, which a race of the token store does not meet';
    const atomic = clean.get('SIGNIN-ROTATION-ATOMIC');
    if (atomic !== 'passed') return `${mode} mode owns no token to race (SIGNIN-ROTATION-ATOMIC is ${atomic}): the hook matrix runs it`;
  }
  // A variant of the token page changes only what a browser sees: its matrix (fault-matrix-token-page.ts) runs it.
  if (fault.conformant) return isPageVariant(fault) ? 'a variant of the token page: only a browser sees it (fault-matrix-token-page.ts)' : undefined;
  if (mode === 'hook') return undefined;
  if (mode === 'reduced-hook' && !fault.rules.some((r) => changed.has(r)))
    return 'every rule it names that this mode checks is judged on the same checks as with the whole hook (the hook matrix runs it)';
  if ((mode === 'hookless' || mode === 'partner-only') && fault.rules.every((r) => SWEPT_ALIKE.has(r)))
    return 'its rules are judged on the same malformed-request sweep in every mode (needs: the partner key at most): the hook matrix runs it';
  if (mode === 'max-tolerance')
    return fault.rules.some((r) => TIME_RULES.has(r)) ? undefined : 'the tolerances change only the time rules, which it does not name';
  if (fault.rules.some((r) => clean.get(r) === 'passed')) return undefined;
  const without = [...new Set(fault.rules.map((r) => clean.get(r)))].join(' or ');
  return `${mode} mode checks none of its rules (${fault.rules.join(', ')}): each is ${without} without it`;
}

/**
 * True when a rule the fault does not name passed without it and is now only partly checked, every
 * part not seen being the rest of a test that stopped at the failure of a rule the fault breaks: the
 * fault's own effect, reported as such ("passed" would claim what tack did not see).
 */
function cutShort(fault: FaultInfo, before: Status | undefined, rule: RunResult['rules'][number]): boolean {
  if (before !== 'passed' || rule.status !== 'skipped' || rule.unverified.length === 0) return false;
  const broken = new Set<string>([...fault.rules, ...(fault.collateral ?? []).flatMap((c) => c.rules)]);
  return rule.cutShort.length === rule.unverified.length && rule.cutShort.every((part) => broken.has(part.stoppedAt));
}

/** What differs from the expectation, one line per rule; empty when the run is exactly as it must be. */
export function deviations(fault: FaultInfo, clean: Map<RuleId, Status>, result: RunResult): string[] {
  const collateral = new Set((fault.collateral ?? []).flatMap((c) => c.rules));
  const out: string[] = [];
  for (const rule of result.rules) {
    const before = clean.get(rule.id);
    const broken = getRule(rule.id)!.level === 'MUST' ? 'failed' : 'warning';
    if (collateral.has(rule.id)) continue;
    if (fault.rules.includes(rule.id)) {
      const ok = before === 'passed' ? rule.status === broken : rule.status === broken || rule.status === before;
      if (!ok) out.push(`${rule.id}: ${rule.status}, expected ${before === 'passed' ? broken : `${broken} or ${before}`} (${rule.reason})`);
    } else if (rule.status !== before && !cutShort(fault, before, rule)) {
      out.push(`${rule.id}: ${rule.status} although the fault does not name it (${before} without the fault): ${rule.reason}`);
    }
  }
  return out;
}

export function faultMatrix(mode: Mode, shard = 0, shards = 1): void {
  describe(`fault matrix, ${mode} mode${shards > 1 ? ` (${shard + 1}/${shards})` : ''}`, () => {
    let clean: Map<RuleId, Status>;
    let foresight: ReturnType<typeof checkedRules>;
    /** The rules this mode judges otherwise than hook mode (reduced-hook only): another status, or other checks. */
    let changed = new Set<RuleId>();
    let withTheHook: RunResult | undefined;
    const mine = FAULTS.filter((_, i) => i % shards === shard).filter((f) => ONLY_FAULTS === undefined || ONLY_FAULTS.has(f.name));
    /** Each fault's run, started once the clean run is known; each test awaits its own. */
    const runs = new Map<string, Promise<RunResult>>();
    beforeAll(async () => {
      const { result, plan } = await runAndPlan(mode, []);
      foresight = checkedRules(plan, result);
      clean = statuses(result);
      if (mode === 'reduced-hook') {
        withTheHook = await runInMode('hook', []);
        changed = judgedOtherwise(withTheHook, result);
      }
      // Without a browser, the token page's rules are skipped, saying why.
      const noBrowser = (r: RunResult['rules'][number]) => r.area === 'token-page' && r.status === 'skipped' && r.reason.includes('needs a browser');
      if (mode === 'hook' || mode === 'max-tolerance') {
        expect(result.rules.filter((r) => r.status !== 'passed' && !noBrowser(r)).map((r) => `${r.id}: ${r.status}: ${r.reason}`)).toEqual([]);
      } else {
        // Nothing fails or errs on a conformant server; what a mode cannot check is skipped, with the reason.
        expect(result.rules.filter((r) => r.status !== 'passed' && r.status !== 'skipped').map((r) => `${r.id}: ${r.status}: ${r.reason}`)).toEqual([]);
      }
      // A run waits more than it computes (races held open, Retry-After honoured, grace windows): a
      // few at a time, each its own server.
      const start = limited(CONCURRENT_RUNS);
      for (const fault of mine) {
        if (notApplicable(mode, fault, clean, changed) !== undefined) continue;
        const run = start(() => runInMode(mode, [fault.name]));
        run.catch(() => undefined); // awaited (and reported) by the fault's own test
        runs.set(fault.name, run);
      }
    });

    it.runIf(shard === 0)("tack doctor foresees exactly the rules the run checks (the runner's own plan)", () => {
      expect(foresight.foreseen).toEqual(foresight.checked);
    });

    // A hook without businesses and access can give its users nothing to read: what rests on a token
    // that works, or on the same businesses, has no evidence, and is skipped saying why, never passed.
    it.runIf(mode === 'reduced-hook')('what needs a user who reads something is skipped, naming the missing capabilities', () => {
      const lost = withTheHook!.rules.filter((r) => r.status === 'passed' && clean.get(r.id) !== 'passed' && r.area !== 'token-page');
      expect(lost.map((r) => r.id)).toEqual(expect.arrayContaining([...READER_RULES]));
      for (const rule of lost) expect([rule.id, clean.get(rule.id)]).toEqual([rule.id, 'skipped']);
    });

    it.for(mine.map((f) => [f.name, f] as const))('%s', async ([, fault], ctx) => {
      const why = notApplicable(mode, fault, clean, changed);
      if (why !== undefined) ctx.skip(why);
      expect(deviations(fault, clean, await runs.get(fault.name)!)).toEqual([]);
    });
  });
}
