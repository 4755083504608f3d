/**
 * A baseline: the deviations a team already knows about, each with its reason (OpenID-conformance
 * style "expected failures" and "expected skips"). Against a baseline, a known failure does not fail
 * the run, an accepted skip of a MUST rule does not fail `--require-all`, an entry that no longer
 * matches (the rule now passes, or deviates otherwise) is reported so it can be removed or renewed,
 * and any other deviation fails as usual.
 *
 * An entry names a rule, the status it may have (`failed`, `warning`, `error` or `skipped`), the
 * check it concerns and why it is accepted. It matches a rule with that status whose deviation is
 * that check (`deviationOf`: the first failed check, the test in error, the parts not checked), so
 * a new failure of a rule already in the baseline is new. An entry without `check` (written by
 * hand, or by an older tack) matches on rule and status alone.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { TackError } from '../harness/errors.js';
import { type ExitPolicy, exitCodeOf } from './exit-policy.js';
import type { RunResult } from './index.js';
import { isRuleId } from '../rules/catalog.js';
import { doesNotHold, type Known, type Narrowed, type RuleRecord, type RuleResult } from './results.js';

/**
 * Where a rule stands against a baseline: a known failure (`expected`), a skip the baseline accepts
 * (`accepted`), an entry it no longer needs (`now-passing`), or a deviation that fails the run
 * (`new-failure`: a failure, or a MUST not checked under --require-all, that no entry accepts).
 */
export type BaselineMark = 'expected' | 'accepted' | 'now-passing' | 'new-failure';

/** What a run found against its baseline, as results.json writes it (`baseline`). */
export const baselineSummarySchema = z.looseObject({
  file: z.string(),
  entries: z.number(),
  /** Rules that failed as the baseline expects: they do not fail the run. */
  expected: z.array(z.string()),
  /** Rules skipped as the baseline accepts (MUST rules --require-all then does not demand); always set by this tack. */
  accepted: z.array(z.string()).optional(),
  /** Rules the baseline expects to fail that now pass: remove them from the baseline. */
  nowPassing: z.array(z.string()),
  /** Rules that fail the run and no entry accepts (not in the baseline, or deviating otherwise). */
  newFailures: z.array(z.string()),
  notes: z.array(z.string()),
});

export type BaselineSummary = Narrowed<Known<z.infer<typeof baselineSummarySchema>>, { readonly accepted: readonly string[] }>;

export const BASELINE_SCHEMA = 'tack-baseline/1';

const entrySchema = z.object({
  rule: z.string().min(1, 'each entry needs a rule id'),
  status: z.enum(['failed', 'warning', 'error', 'skipped'], { message: 'status must be failed, warning, error or skipped' }),
  check: z.string().min(1, 'check, when given, names the failed check (tack baseline write fills it in)').optional(),
  reason: z.string().min(1, 'each entry needs a reason: why the deviation is accepted'),
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

/** What a deviation is read from: a rule as the runner finished it, or as results.json has it. */
type Deviating = Pick<RuleRecord, 'status' | 'reason' | 'checks' | 'unverified'>;

/**
 * What a rule's deviation is, as a baseline entry names it: the first failed check's title (for a
 * property, with the rule its failing step broke), the test that ended in error, the parts not
 * checked (or why none could be). Placeholder numbers (`<api-token#3>`) vary from run to run and
 * are left out.
 */
export function deviationOf(rule: Deviating): string {
  const failed = rule.checks.find((c) => !c.ok);
  let text: string;
  if ((rule.status === 'failed' || rule.status === 'warning') && failed) {
    const inner = failed.replay?.rule;
    text = inner ? `${failed.title} (${inner})` : failed.title;
  } else if (rule.status === 'error') text = rule.reason.split(':')[0] ?? rule.reason;
  else if (rule.status === 'skipped' && rule.unverified.length > 0) text = rule.unverified.map((u) => u.split(': ')[0]).join('; ');
  else text = rule.reason;
  return normalise(text);
}

function normalise(text: string): string {
  return text
    .replace(/<([a-z-]+)#\d+>/g, '<$1>')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The entry that accepts `rule` as it is now, if any. */
function matching(entries: readonly BaselineEntry[], rule: Deviating): BaselineEntry | undefined {
  const deviation = deviationOf(rule);
  return entries.find((e) => e.status === rule.status && (e.check === undefined || normalise(e.check) === deviation));
}

export interface AppliedBaseline {
  readonly summary: BaselineSummary;
  readonly marks: ReadonlyMap<string, BaselineMark>;
  /** The entry's reason, for every rule it accepts (expected or accepted). */
  readonly reasons: ReadonlyMap<string, string>;
  readonly exitCode: number;
}

export function applyBaseline(baseline: Baseline, result: RunResult, policy: ExitPolicy): AppliedBaseline {
  const byRule = new Map<string, BaselineEntry[]>();
  for (const e of baseline.entries) byRule.set(e.rule, [...(byRule.get(e.rule) ?? []), e]);
  const marks = new Map<string, BaselineMark>();
  const reasons = new Map<string, string>();
  const lists = { expected: [] as string[], accepted: [] as string[], nowPassing: [] as string[], newFailures: [] as string[] };
  const notes: string[] = [];
  const mark = (rule: string, as: BaselineMark, list: string[]) => {
    marks.set(rule, as);
    list.push(rule);
  };
  for (const e of baseline.entries) if (!isRuleId(e.rule)) notes.push(`the baseline names ${e.rule}, which is not a rule of this catalog (see: tack rules)`);
  for (const rule of result.rules) {
    const entries = byRule.get(rule.id) ?? [];
    const entry = matching(entries, rule);
    const failsRun = doesNotHold(rule.status)
      ? rule.status !== 'warning' || policy.strict
      : rule.status === 'skipped' && rule.level === 'MUST' && policy.requireAll;
    if (entry && rule.status !== 'passed') {
      reasons.set(rule.id, entry.reason);
      if (rule.status === 'skipped') mark(rule.id, 'accepted', lists.accepted);
      else mark(rule.id, 'expected', lists.expected);
    } else if (rule.status === 'passed' && entries.length > 0) {
      mark(rule.id, 'now-passing', lists.nowPassing);
      notes.push(`now passing: ${rule.id}: remove it from the baseline ${baseline.file}`);
    } else if (failsRun) mark(rule.id, 'new-failure', lists.newFailures);
    if (!entry && entries.length > 0 && rule.status !== 'passed') {
      const was = entries.map((e) => (e.check === undefined ? e.status : `${e.status} at "${e.check}"`)).join(' or ');
      notes.push(`stale entry: ${rule.id} is in the baseline as ${was}, but is now ${rule.status} at "${deviationOf(rule)}"`);
    }
  }
  // Known failures count as checked and holding for the exit code, accepted skips as rules --require-all
  // does not demand (still not checked: a run of nothing but those checked nothing); the rest as the runner says.
  const waived = result.rules.map(
    (r): RuleResult => (!reasons.has(r.id) ? r : r.status === 'skipped' ? { ...r, level: 'SHOULD' } : { ...r, status: 'passed' }),
  );
  return {
    summary: { file: baseline.file, entries: baseline.entries.length, ...lists, notes },
    marks,
    reasons,
    exitCode: exitCodeOf(waived, policy, result.hookProblem),
  };
}

/**
 * A baseline of every rule that did not hold in a run, and of every MUST rule it did not check
 * (which `--require-all` fails), each with the check it concerns and the run's reason.
 */
export function baselineFrom(doc: { readonly rules: readonly (Deviating & { readonly id: string; readonly level: 'MUST' | 'SHOULD' })[] }): {
  schema: typeof BASELINE_SCHEMA;
  expected: BaselineEntry[];
} {
  const expected = doc.rules
    .filter((r) => doesNotHold(r.status) || (r.status === 'skipped' && r.level === 'MUST'))
    .map((r) => ({ rule: r.id, status: r.status as BaselineEntry['status'], check: deviationOf(r), reason: r.reason }));
  return { schema: BASELINE_SCHEMA, expected };
}

export function writeBaseline(file: string, baseline: ReturnType<typeof baselineFrom>): void {
  writeFileSync(file, `${JSON.stringify(baseline, null, 2)}\n`);
}
