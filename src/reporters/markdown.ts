/**
 * `summary.md`: the verdict, a table by area and one line per rule that does not hold (a MUST rule
 * not checked included, when --require-all makes that fail the run), the baseline's accepted skips
 * with their reasons, and what the run skipped, grouped by why. Short
 * enough for `$GITHUB_STEP_SUMMARY` (`cat reports/<run-id>/summary.md >> "$GITHUB_STEP_SUMMARY"`).
 */
import { groupErrors } from './error-groups.js';
import { groupSkips } from './skips.js';
import { byArea, countStatuses, notHolding, notHoldingLabel, STATUS_MARK, tokenLines, uncheckedFailing, verdictOf } from './outcome-words.js';
import { STATUSES } from '../runner/results.js';
import type { ResultsDocument } from './results-schema.js';

/** At most this many rule lines; the rest are counted (every rule is in report.html). */
const MAX_LINES = 60;

export function renderMarkdown(doc: ResultsDocument): string {
  const verdict = verdictOf(doc);
  const out: string[] = [];
  out.push(`## tack: ${verdict.title}`, '', `${cell(verdict.detail)}.`, '');
  const versions = `tack ${doc.tack.version} · catalog ${doc.tack.catalog}`;
  if (doc.client) {
    const client = `client \`${cell(doc.client.command)}\` (${doc.client.profile})`;
    out.push(`Run \`${doc.run.id}\`: ${client} against tack's scripted reference server · ${versions} · exit ${doc.run.exitCode}`, '');
  } else {
    const faults = doc.run.faults.length ? `, faults: ${doc.run.faults.join(', ')}` : '';
    const builtIn = doc.target.builtIn ? ` (built-in reference server${faults})` : '';
    out.push(`Run \`${doc.run.id}\` against \`${doc.target.baseUrl}\`${builtIn} · ${versions} · seed ${doc.run.seed} · exit ${doc.run.exitCode}`, '');
  }
  out.push(`| area | ${STATUSES.join(' | ')} |`, `|---|${STATUSES.map(() => '--:').join('|')}|`);
  for (const group of byArea(doc.rules)) {
    const c = countStatuses(group.rules);
    out.push(`| ${cell(group.label)} | ${STATUSES.map((s) => c[s]).join(' | ')} |`);
  }
  const total = countStatuses(doc.rules);
  out.push(`| **total** | ${STATUSES.map((s) => `**${total[s]}**`).join(' | ')} |`, '');

  const bad = notHolding(doc);
  if (bad.length > 0) {
    out.push('### Not holding', '');
    const { groups, single } = groupErrors(bad);
    for (const g of groups) {
      out.push(`- ${STATUS_MARK.error} **${g.rules.length}** rules in error: ${cell(g.why)}: ${g.rules.map((r) => `\`${r.id}\``).join(', ')}`);
    }
    for (const r of single.slice(0, MAX_LINES)) {
      const mark = r.baseline === 'expected' ? ` _(expected, baseline: ${cell(r.baselineReason ?? '')})_` : r.baseline === 'new-failure' ? ' **new**' : '';
      const replay = r.replay ? ` — replay: \`${r.replay}\`` : '';
      out.push(`- ${STATUS_MARK[r.status]} \`${r.id}\` ${r.level} ${notHoldingLabel(r, doc)}${mark}: ${cell(r.reason)}${replay}`);
    }
    if (single.length > MAX_LINES) out.push(`- … and ${single.length - MAX_LINES} more (see report.html)`);
    out.push('');
  }
  const skipped = doc.rules.filter((r) => r.status === 'skipped' && r.baseline !== 'accepted' && !uncheckedFailing(r, doc));
  if (skipped.length > 0) {
    out.push('### Not checked', '');
    for (const g of groupSkips(skipped)) out.push(`- **${g.rules.length}** — ${cell(g.why)}: ${g.rules.map((id) => `\`${id}\``).join(', ')}`);
    out.push('');
  }
  if (doc.baseline) {
    const b = doc.baseline;
    const accepted = b.accepted ?? [];
    const counts =
      `${b.expected.length} expected failure(s) seen, ${accepted.length} accepted skip(s), ` +
      `${b.newFailures.length} new, ${b.nowPassing.length} now passing`;
    out.push('### Baseline', '', `\`${b.file}\`: ${counts}.`, '');
    for (const r of doc.rules.filter((rule) => rule.baseline === 'accepted')) {
      out.push(`- ${STATUS_MARK[r.status]} \`${r.id}\` not checked, accepted: ${cell(r.baselineReason ?? '')} (${cell(r.reason)})`);
    }
    for (const note of b.notes) out.push(`- ${cell(note)}`);
    if (b.notes.length > 0 || accepted.length > 0) out.push('');
  }
  if (doc.target.hook?.problem) out.push(`Test hook: ${cell(doc.target.hook.problem)}`, '');
  for (const note of doc.run.notes ?? []) out.push(`Note: ${cell(note)}`, '');
  const [tokens, ...more] = tokenLines(doc);
  if (tokens !== undefined) out.push(`${tokens}.`, ...more.map((line) => `- ${cell(line)}`), '');
  const details = doc.client ? 'the requests that judged each rule, each run of the client and its output' : 'exchanges, curl and replay commands';
  out.push(`Details: \`report.html\` (${details}), \`results.json\`, \`transcript.jsonl\`, \`junit.xml\`.`, '');
  return out.join('\n');
}

/** One table cell or list line: no newlines, no pipes, no HTML. */
function cell(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/[|]/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;').trim();
}
