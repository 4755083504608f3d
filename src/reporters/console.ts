/**
 * The console: one line per rule as it finishes, then a summary table. Everything printed here
 * is built from results whose text was redacted when it was recorded, and redacted again on output.
 */
import type { Redactor } from '../harness/redactor.js';
import { groupErrors } from './error-groups.js';
import { replayCommand } from './judged-exchanges.js';
import { groupSkips, skipLines, wrapIds } from './skips.js';
import { plural } from '../text/plural.js';
import { notHolding, STATUS_MARK, tokenLines, uncheckedFailing, verdictOf } from './outcome-words.js';
import { AREAS, type Area } from '../rules/catalog.js';
import { type RuleResult, type Status, STATUSES } from '../runner/results.js';
import type { ReportRule } from './results-schema.js';
import type { ResultsDocument } from './results-schema.js';

const useColour = process.stdout.isTTY === true && process.env.NO_COLOR === undefined;
const paint = (code: number, text: string) => (useColour ? `\u001b[${code}m${text}\u001b[0m` : text);

const COLOUR: Record<Status, number> = { passed: 32, failed: 31, warning: 33, skipped: 90, error: 35 };
const MARK = Object.fromEntries(STATUSES.map((s) => [s, paint(COLOUR[s], STATUS_MARK[s])])) as Record<Status, string>;

/** One line per rule as its verdict is final; `replay` are the arguments that reach the same target again. */
/** A rule as it finished (the runner's), or as results.json has it. */
type Finished = Pick<RuleResult | ReportRule, 'id' | 'level' | 'status' | 'reason' | 'durationMs' | 'checks'>;

export function ruleLine(r: Finished, replay: readonly string[] = []): string {
  const head = `${MARK[r.status]} ${r.id} [${r.level}]`;
  switch (r.status) {
    case 'passed':
      return `${head} ${paint(90, `(${r.durationMs} ms)`)}`;
    case 'skipped':
      return `${head} skipped: ${r.reason}`;
    default:
      return `${head} ${r.status}: ${r.reason}${replayHint(r, replay)}`;
  }
}

function replayHint(r: Finished, args: readonly string[]): string {
  const replay = r.checks.find((c) => !c.ok && c.replay)?.replay;
  if (!replay) return '';
  return `\n    replay: ${replayCommand(r.id, replay, args)}`;
}

function summaryTable(result: { readonly rules: readonly Pick<RuleResult | ReportRule, 'area' | 'status'>[] }): string {
  // Areas with no rule in the run are left out: `tack run` judges no client rule, `tack client` only those.
  const areas = (Object.keys(AREAS) as Area[]).filter((area) => result.rules.some((r) => r.area === area));
  const header = ['area', ...STATUSES];
  const rows = areas.map((area) => {
    const rules = result.rules.filter((r) => r.area === area);
    return [AREAS[area], ...STATUSES.map((s) => String(rules.filter((r) => r.status === s).length))];
  });
  rows.push(['total', ...STATUSES.map((s) => String(result.rules.filter((r) => r.status === s).length))]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function printSummary(doc: ResultsDocument, redactor: Redactor, write: (s: string) => void): void {
  const result = { rules: doc.rules, fieldsUsed: doc.target.fieldsUsed, hookProblem: doc.target.hook?.problem };
  write(`\n${summaryTable(result)}\n`);
  const failed = notHolding(doc);
  if (failed.length > 0) {
    write('\nNot holding:\n');
    const { groups, single } = groupErrors(failed);
    for (const r of single) {
      const label = uncheckedFailing(r, doc) ? 'not checked (--require-all): ' : '';
      write(`${redactor.redact(`  ${MARK[r.status]} ${r.id}: ${label}${r.reason}`)}\n`);
    }
    for (const g of groups) {
      write(`${redactor.redact(`  ${MARK.error} ${plural(g.rules.length, 'rule')} in error: ${g.why}`)}\n`);
      write(`${wrapIds(g.rules.map((r) => r.id)).join('\n')}\n`);
    }
  }
  const skipped = doc.rules.filter((r) => r.status === 'skipped' && r.baseline !== 'accepted' && !uncheckedFailing(r, doc));
  if (skipped.length > 0) write(`\nNot checked, by why:\n${skipLines(groupSkips(skipped)).join('\n')}\n`);
  const accepted = doc.rules.filter((rule) => rule.baseline === 'accepted');
  if (accepted.length > 0) write('\nNot checked, accepted in the baseline:\n');
  for (const r of accepted) write(`${redactor.redact(`  ${MARK.skipped} ${r.id}: ${r.baselineReason ?? ''} (${r.reason})`)}\n`);
  const fields = Object.entries(result.fieldsUsed);
  if (fields.length > 0) write(`\nFields found: ${fields.map(([k, v]) => `${k} in "${v}"`).join(', ')}\n`);
  if (result.hookProblem) write(redactor.redact(`\nTest hook: ${result.hookProblem}\n`));
  for (const note of doc.run.notes ?? []) write(redactor.redact(`\nNote: ${note}\n`));
  const tokens = tokenLines(doc);
  if (tokens.length > 0) write(redactor.redact(`\n${tokens.join('\n  ')}\n`));
  const verdict = verdictOf(doc);
  write(redactor.redact(`\n${verdict.title}: ${verdict.detail}\n`));
}
