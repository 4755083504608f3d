/**
 * A baseline: the deviations a team already knows about, each with its reason (OpenID-conformance
 * style "expected failures" and "expected skips"). Against a baseline, a known failure does not fail
 * the run, an accepted skip of a MUST rule does not fail `--require-all`, an entry that no longer
 * matches (the rule now passes, or deviates otherwise) is reported so it can be removed or renewed,
 * and any other deviation fails as usual.
 *
 * An entry names a rule, the status it may have (`failed`, `warning`, `error` or `skipped`), what it
 * waives and why it is accepted, by ids (`checks`), stable across runs and rewordings: a failure's
 * failed checks (`<test id>/<rule>/<key>`: ./test-context.ts), or what kept a skipped rule or one in
 * error from being checked (`<test>/needs/<need>`, a part not seen, `<test>/error`: RuleResult.notChecked).
 * The entry matches only when every one of the rule's ids is one it names, so a new failure of a rule
 * already in the baseline is new. An entry of an older tack names one deviation in words (`check`):
 * it matches only while the rule deviates as it did then (every failed check with that title). An
 * entry naming nothing (written by hand) waives every deviation of the rule with its status, a new
 * one too, and every run says so.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { TackError } from '../harness/errors.js';
import { type ExitPolicy, exitCodeOf } from './exit-policy.js';
import type { RunResult } from './index.js';
import { isRuleId } from '../rules/catalog.js';
import { doesNotHold, type Known, type Narrowed, type RuleRecord, type RuleResult, type Status } from './results.js';

/**
 * Where a rule stands against a baseline: a known failure (`expected`), a skip the baseline accepts
 * (`accepted`), an entry it no longer needs (`now-passing`), or a deviation that fails the run
 * (`new-failure`: a failure, or a MUST not checked under --require-all, that no entry accepts).
 */
type BaselineMark = 'expected' | 'accepted' | 'now-passing' | 'new-failure';

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
  checks: z.array(z.string().min(1)).min(1, 'checks, when given, lists the ids of the failed checks it waives (tack baseline write fills them in)').optional(),
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
    // Stryker disable next-line StringLiteral: without an encoding JSON.parse reads the Buffer as UTF-8 all the same.
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
      // Stryker disable next-line StringLiteral: a failed zod parse always has an issue; 'bad shape' is never shown.
      `--baseline ${file} is not a baseline: ${first ? `${first.path.join('.') || 'file'}: ${first.message}` : 'bad shape'} ` +
        '(write one with: tack baseline write)',
    );
  }
  return { file, entries: parsed.data.expected };
}

/** What a deviation is read from: a rule as the runner finished it, or as results.json has it. */
type Deviating = Pick<RuleRecord, 'status' | 'reason' | 'checks' | 'unverified' | 'notChecked'>;

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

const FAILING: readonly Status[] = ['failed', 'warning'];

/**
 * What a baseline entry names a rule's deviation by: the ids of a failing rule's failed checks, of
 * what kept a skipped rule or one in error from being checked. Undefined when the rule holds, or
 * one of them has no id (an older results.json, tack client's problems).
 */
export function deviationIds(rule: Deviating): string[] | undefined {
  if (rule.status === 'skipped' || rule.status === 'error')
    return rule.notChecked !== undefined && rule.notChecked.length > 0 ? [...rule.notChecked] : undefined;
  if (!FAILING.includes(rule.status)) return undefined;
  const failed = rule.checks.filter((c) => !c.ok);
  if (failed.length === 0 || failed.some((c) => c.id === undefined)) return undefined;
  return [...new Set(failed.map((c) => c.id!))];
}

/** The title of a failed check as an entry of an older tack names it (a property's with the rule its failing step broke). */
function titleOf(check: Deviating['checks'][number]): string {
  const inner = check.replay?.rule;
  return normalise(inner ? `${check.title} (${inner})` : check.title);
}

/** Whether `entry` accepts `rule` as it is now. */
function covers(entry: BaselineEntry, rule: Deviating): boolean {
  if (entry.status !== rule.status) return false;
  const failing = FAILING.includes(rule.status);
  const waived = entry.checks;
  if (waived !== undefined) return deviationIds(rule)?.every((id) => waived.includes(id)) === true;
  if (entry.check === undefined) return true;
  if (failing) {
    const failed = rule.checks.filter((c) => !c.ok);
    return failed.length > 0 && failed.every((c) => titleOf(c) === normalise(entry.check!));
  }
  return normalise(entry.check) === deviationOf(rule);
}

/** The entry that accepts `rule` as it is now, if any. */
function matching(entries: readonly BaselineEntry[], rule: Deviating): BaselineEntry | undefined {
  return entries.find((e) => covers(e, rule));
}

/** What an entry waives, in a stale-entry note. */
function waives(e: BaselineEntry): string {
  if (e.checks !== undefined) return `${e.status} at ${e.checks.join(', ')}`;
  return e.check === undefined ? e.status : `${e.status} at "${e.check}"`;
}

/** Where a rule deviates now, in a stale-entry note: the ids of its failed checks, else as deviationOf says. */
function deviatesAt(rule: Deviating): string {
  const ids = deviationIds(rule);
  return ids !== undefined ? ids.join(', ') : `"${deviationOf(rule)}"`;
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
    // Stryker disable next-line ConditionalExpression,StringLiteral: no entry's status is passed (entrySchema), so none matches a passed rule.
    if (entry && rule.status !== 'passed') {
      reasons.set(rule.id, entry.reason);
      if (entry.check === undefined && entry.checks === undefined) {
        notes.push(
          `the baseline's entry for ${rule.id} names no check: it waives the rule whenever it is ${entry.status}, ` +
            'a new deviation too (name its checks: tack baseline write)',
        );
      }
      if (rule.status === 'skipped') mark(rule.id, 'accepted', lists.accepted);
      else mark(rule.id, 'expected', lists.expected);
    } else if (rule.status === 'passed' && entries.length > 0) {
      mark(rule.id, 'now-passing', lists.nowPassing);
      notes.push(`now passing: ${rule.id}: remove it from the baseline ${baseline.file}`);
    } else if (failsRun) mark(rule.id, 'new-failure', lists.newFailures);
    if (!entry && entries.length > 0 && rule.status !== 'passed') {
      notes.push(`stale entry: ${rule.id} is in the baseline as ${entries.map(waives).join(' or ')}, but is now ${rule.status} at ${deviatesAt(rule)}`);
    }
  }
  // Known failures count as checked and holding for the exit code, accepted skips as rules --require-all
  // does not demand (still not checked: a run of nothing but those checked nothing); the rest as the runner says.
  const waived = result.rules.map(
    // Stryker disable next-line ObjectLiteral,StringLiteral: exitCodeOf reads status and level only; a skip of a SHOULD counts as an empty record does.
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
 * (which `--require-all` fails), each with the run's reason and the ids of what it waives: every
 * failed check, or what kept the rule from being checked (from the results.json of a tack before
 * ids, the first failed check's title, the test in error or the parts not checked, in words).
 */
export function baselineFrom(doc: { readonly rules: readonly (Deviating & { readonly id: string; readonly level: 'MUST' | 'SHOULD' })[] }): {
  schema: typeof BASELINE_SCHEMA;
  expected: BaselineEntry[];
} {
  const expected = doc.rules
    .filter((r) => doesNotHold(r.status) || (r.status === 'skipped' && r.level === 'MUST'))
    .map((r): BaselineEntry => {
      const status = r.status as BaselineEntry['status'];
      const ids = deviationIds(r);
      return ids !== undefined ? { rule: r.id, status, checks: ids, reason: r.reason } : { rule: r.id, status, check: deviationOf(r), reason: r.reason };
    });
  return { schema: BASELINE_SCHEMA, expected };
}

export function writeBaseline(file: string, baseline: ReturnType<typeof baselineFrom>): void {
  writeFileSync(file, `${JSON.stringify(baseline, null, 2)}\n`);
}
