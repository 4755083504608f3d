/**
 * A baseline: the failures a team already knows about, each with its reason (OpenID-conformance
 * style "expected failures"). Against a baseline, a known failure does not fail the run, a known
 * failure that now passes is reported so it can be removed, and any other failure fails as usual.
 *
 * A rule is "known" when the baseline lists it with the same status (`failed`, `warning` or
 * `error`); a rule that fails differently than expected (a warning that became a failure) is new.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { TackError } from '../harness/errors.js';
import { type ExitPolicy, exitCodeOf } from '../harness/exit-code.js';
import type { RunResult } from '../harness/runner/index.js';
import type { RuleResult } from '../harness/types.js';
import { isRuleId } from '../rules/catalog.js';
import type { BaselineMark, BaselineSummary, ResultsDocument } from './json.js';

export const BASELINE_SCHEMA = 'tack-baseline/1';

const entrySchema = z.object({
  rule: z.string().min(1, 'each entry needs a rule id'),
  status: z.enum(['failed', 'warning', 'error'], { message: 'status must be failed, warning or error' }),
  reason: z.string().min(1, 'each expected failure needs a reason'),
});

/** `{"schema":"tack-baseline/1","expected":[...]}`, or the bare list of entries. */
const fileSchema = z.object({ schema: z.literal(BASELINE_SCHEMA).optional(), expected: z.array(entrySchema) });

export type BaselineEntry = z.infer<typeof entrySchema>;

export interface Baseline {
  readonly file: string;
  readonly entries: readonly BaselineEntry[];
}

export function readBaseline(file: string): Baseline {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'not JSON';
    throw new TackError('TACK_ERR_USAGE', `--baseline ${file} could not be read (${code})`);
  }
  const parsed = fileSchema.safeParse(Array.isArray(raw) ? { expected: raw } : raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new TackError(
      'TACK_ERR_USAGE',
      `--baseline ${file} is not a baseline: ${first ? `${first.path.join('.') || 'file'}: ${first.message}` : 'bad shape'} ` +
        '(write one with: tack baseline write)',
    );
  }
  return { file, entries: parsed.data.expected };
}

export interface AppliedBaseline {
  readonly summary: BaselineSummary;
  readonly marks: ReadonlyMap<string, BaselineMark>;
  readonly exitCode: number;
}

export function applyBaseline(baseline: Baseline, result: RunResult, policy: ExitPolicy): AppliedBaseline {
  const byRule = new Map(baseline.entries.map((e) => [e.rule, e]));
  const marks = new Map<string, BaselineMark>();
  const expected: string[] = [];
  const nowPassing: string[] = [];
  const newFailures: string[] = [];
  const notes: string[] = [];
  for (const e of baseline.entries) if (!isRuleId(e.rule)) notes.push(`the baseline names ${e.rule}, which is not a rule of this catalog (see: tack rules)`);
  for (const rule of result.rules) {
    const entry = byRule.get(rule.id);
    const deviates = rule.status === 'failed' || rule.status === 'warning' || rule.status === 'error';
    if (deviates && entry?.status === rule.status) {
      marks.set(rule.id, 'expected');
      expected.push(rule.id);
    } else if (deviates) {
      if (rule.status !== 'warning' || policy.strict) {
        marks.set(rule.id, 'new-failure');
        newFailures.push(rule.id);
      }
      if (entry) notes.push(`${rule.id} is in the baseline as ${entry.status} but is now ${rule.status}`);
    } else if (entry && rule.status === 'passed') {
      marks.set(rule.id, 'now-passing');
      nowPassing.push(rule.id);
      notes.push(`now passing: ${rule.id}: remove it from the baseline ${baseline.file}`);
    }
  }
  // Known failures count as checked and holding for the exit code; everything else as the runner says.
  const waived: RunResult = { ...result, rules: result.rules.map((r): RuleResult => (marks.get(r.id) === 'expected' ? { ...r, status: 'passed' } : r)) };
  return {
    summary: { file: baseline.file, entries: baseline.entries.length, expected, nowPassing, newFailures, notes },
    marks,
    exitCode: exitCodeOf(waived.rules, policy, result.hookProblem),
  };
}

/** A baseline of every rule that did not hold in a run, each with the run's reason. */
export function baselineFrom(doc: ResultsDocument): { schema: typeof BASELINE_SCHEMA; expected: BaselineEntry[] } {
  const expected = doc.rules
    .filter((r): r is typeof r & { status: BaselineEntry['status'] } => r.status === 'failed' || r.status === 'warning' || r.status === 'error')
    .map((r) => ({ rule: r.id, status: r.status, reason: r.reason }));
  return { schema: BASELINE_SCHEMA, expected };
}

export function writeBaseline(file: string, baseline: ReturnType<typeof baselineFrom>): void {
  writeFileSync(file, `${JSON.stringify(baseline, null, 2)}\n`);
}

/** What a run comes to: its exit code, after the baseline when one is given. Computed once, by the command. */
export interface RunOutcome {
  readonly exitCode: number;
  readonly policy: ExitPolicy;
  readonly applied: AppliedBaseline | undefined;
  /** A baseline that could not be read: a configuration error (exit 2); the reports are still written. */
  readonly baselineProblem: BaselineSummary | undefined;
}

export function decideOutcome(result: RunResult, policy: ExitPolicy, baselineFile: string | undefined): RunOutcome {
  if (baselineFile === undefined)
    return { exitCode: exitCodeOf(result.rules, policy, result.hookProblem), policy, applied: undefined, baselineProblem: undefined };
  try {
    const applied = applyBaseline(readBaseline(baselineFile), result, policy);
    return { exitCode: applied.exitCode, policy, applied, baselineProblem: undefined };
  } catch (error) {
    const message = error instanceof TackError ? error.message : String(error);
    const baselineProblem = { file: baselineFile, entries: 0, expected: [], nowPassing: [], newFailures: [], notes: [message] };
    return { exitCode: 2, policy, applied: undefined, baselineProblem };
  }
}
