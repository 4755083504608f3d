/**
 * `summary.md`: the verdict, a table by area and one line per rule that does not hold. Short
 * enough for `$GITHUB_STEP_SUMMARY` (`cat reports/<run-id>/summary.md >> "$GITHUB_STEP_SUMMARY"`).
 */
import type { ResultsDocument } from './json.js';
import { byArea, countStatuses, notHolding, STATUS_MARK, STATUSES, tokenLines, verdictOf } from './verdict.js';

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

  const bad = notHolding(doc.rules);
  if (bad.length > 0) {
    out.push('### Not holding', '');
    for (const r of bad.slice(0, MAX_LINES)) {
      const mark = r.baseline === 'expected' ? ' _(expected, baseline)_' : r.baseline === 'new-failure' ? ' **new**' : '';
      out.push(`- ${STATUS_MARK[r.status]} \`${r.id}\` ${r.level} ${r.status}${mark}: ${cell(r.reason)}${r.replay ? ` — replay: \`${r.replay}\`` : ''}`);
    }
    if (bad.length > MAX_LINES) out.push(`- … and ${bad.length - MAX_LINES} more (see report.html)`);
    out.push('');
  }
  if (doc.baseline) {
    const b = doc.baseline;
    out.push(
      '### Baseline',
      '',
      `\`${b.file}\`: ${b.expected.length} expected failure(s) seen, ${b.newFailures.length} new, ${b.nowPassing.length} now passing.`,
      '',
    );
    for (const note of b.notes) out.push(`- ${cell(note)}`);
    if (b.notes.length > 0) out.push('');
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
