/**
 * `report.html`: one self-contained page a partner can open anywhere. A header with the verdict,
 * the rule table (filterable by status, area and text), and for each rule that does not hold: the
 * checks that judged it (expected vs actual), the exchanges they were made on, a curl command that
 * sends the judged request again with secrets as `${TACK_...}` variables, and the replay command of
 * a failed property.
 *
 * Every piece of text is HTML-escaped here; the inputs are already redacted (results document and
 * transcript), and the writer redacts the finished page once more.
 */
import { createHash } from 'node:crypto';
import type { Exchange } from '../harness/transcript.js';
import { esc } from '../text/escape-html.js';
import { REPORT_CSS, REPORT_JS } from './report-html-assets.js';
import { clientMetaRows, clientRunsSection } from './report-html-client.js';
import { byArea, countStatuses, notHolding, STATUS_MARK, tokenLines, verdictOf } from './outcome-words.js';
import { doesNotHold, STATUSES } from '../runner/results.js';
import type { ReportRule, ResultsDocument, ReportCheck } from './results-schema.js';

/** Longest body shown inline; the whole one is in transcript.jsonl. */
const MAX_BODY = 6000;

/** The footer's note on placeholders and where the full record is. */
const FOOTER_NOTE =
  '<p>Secrets and tokens are shown as placeholders (<code>&lt;api-token#3&gt;</code>): the same placeholder is the same value throughout this run, ' +
  'so a token can be followed through a rotation chain. Commands read secrets from <code>TACK_*</code> shell variables you set; ' +
  'they never contain the values. The full record is in <code>results.json</code> and <code>transcript.jsonl</code> next to this file.</p>';

export function renderHtml(
  doc: ResultsDocument,
  exchanges: readonly Exchange[],
  images: ReadonlyMap<string, string> = new Map(),
  scripts: ReadonlyMap<string, string> = new Map(),
): string {
  const bySeq = new Map(exchanges.map((e) => [e.seq, e]));
  const verdict = verdictOf(doc);
  const csp = `default-src 'none'; style-src '${sha256(REPORT_CSS)}'; script-src '${sha256(REPORT_JS)}'; img-src data:; base-uri 'none'; form-action 'none'`;
  const bad = notHolding(doc);
  const client = doc.client !== undefined;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${esc(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(`tack ${verdict.title}: ${doc.client ? `client ${doc.client.profile}` : doc.target.baseUrl} (${doc.run.id})`)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<header class="verdict verdict-${esc(verdict.key)}" id="verdict">
<h1>tack: ${esc(verdict.title)}</h1>
<p>${esc(verdict.detail)}</p>
${metaList(doc)}
</header>
<main>
${baselineSection(doc)}
<h2 id="rules-heading">Rules</h2>
${filters(doc)}
${ruleTable(doc)}
<h2>Rules that do not hold</h2>
${bad.length === 0 ? '<p class="muted">Every rule checked holds.</p>' : bad.map((r) => ruleDetail(r, bySeq, images, client, scripts)).join('\n')}
${observations(doc)}
${doc.client ? clientRunsSection(doc.client) : ''}
<footer>
${FOOTER_NOTE}
<p>tack ${esc(doc.tack.version)}, rule catalog ${esc(doc.tack.catalog)}, schema ${esc(doc.schema)}.</p>
</footer>
</main>
<script>${REPORT_JS}</script>
</body>
</html>
`;
}

function metaList(doc: ResultsDocument): string {
  const t = doc.target;
  if (doc.client) {
    const rows: [string, string][] = [['run', doc.run.id], ...clientMetaRows(doc.client)];
    rows.push(['started', doc.run.startedAt], ['finished', doc.run.finishedAt], ['exit code', `${doc.run.exitCode}`]);
    return `<dl class="meta">${rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join('')}</dl>`;
  }
  const rows: [string, string][] = [
    ['run', doc.run.id],
    ['target', `${t.baseUrl}${t.builtIn ? ' (built-in reference server)' : ''}`],
    ['sign-in server', t.identityUrl],
  ];
  if (t.otherBaseUrl) rows.push(['other tenant', t.otherBaseUrl]);
  rows.push(['partner headers', t.partnerHeaders.join(', ')], ['client id', t.clientId]);
  rows.push([
    'mode',
    t.mode === 'hook'
      ? `test hook (${t.hook?.contract ?? 'contract unknown'}): ${t.hook?.capabilities.join(', ') || 'no capability'}`
      : t.mode === 'hookless'
        ? 'hookless (API token file)'
        : 'no test hook, no API token',
  ]);
  if (t.hook?.problem) rows.push(['test hook problem', t.hook.problem]);
  if (doc.run.faults.length > 0) rows.push(['faults', doc.run.faults.join(', ')]);
  rows.push(
    ['seed', `${doc.run.seed} (${doc.run.numRuns} runs per property)`],
    ['started', doc.run.startedAt],
    ['finished', doc.run.finishedAt],
    ['exit code', `${doc.run.exitCode}${doc.run.strict ? ' (--strict)' : ''}`],
  );
  if (doc.run.only.length > 0) rows.push(['only', doc.run.only.join(', ')]);
  if (doc.run.status === 'interrupted') rows.push(['status', `interrupted (${doc.run.interrupted?.signal ?? 'a signal'})`]);
  const tokens = tokenLines(doc);
  if (tokens.length > 0) rows.push(['clean-up', tokens.join('; ')]);
  for (const note of doc.run.notes ?? []) rows.push(['note', note]);
  const fields = Object.entries(t.fieldsUsed);
  if (fields.length > 0) rows.push(['fields found', fields.map(([k, v]) => `${k}: ${v}`).join('; ')]);
  return `<dl class="meta">${rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join('')}</dl>`;
}

function baselineSection(doc: ResultsDocument): string {
  const b = doc.baseline;
  if (!b) return '';
  const accepted = doc.rules
    .filter((r) => r.baseline === 'accepted')
    .map((r) => `<li><code>${esc(r.id)}</code> not checked, accepted: ${esc(r.baselineReason ?? '')} <span class="muted">(${esc(r.reason)})</span></li>`);
  const lines = [...accepted, ...b.notes.map((n) => `<li>${esc(n)}</li>`)];
  const notes = lines.length > 0 ? `<ul>${lines.join('')}</ul>` : '';
  const seen =
    `${b.expected.length} seen as expected, ${b.accepted?.length ?? 0} accepted skip(s), ` +
    `${b.newFailures.length} new failure(s), ${b.nowPassing.length} now passing`;
  return `<h2>Baseline</h2>
<p><code>${esc(b.file)}</code> lists ${b.entries} entr${b.entries === 1 ? 'y' : 'ies'}: ${seen}.</p>
${notes}`;
}

function filters(doc: ResultsDocument): string {
  const counts = countStatuses(doc.rules);
  const buttons = [`<button type="button" data-filter-status="all" aria-pressed="true">all (${doc.rules.length})</button>`]
    .concat(
      STATUSES.map(
        (s) => `<button type="button" class="status-${s}" data-filter-status="${s}" aria-pressed="false">${STATUS_MARK[s]} ${s} (${counts[s]})</button>`,
      ),
    )
    .join('');
  const areas = byArea(doc.rules)
    .map((g) => `<option value="${esc(g.area)}">${esc(g.label)}</option>`)
    .join('');
  return `<nav class="filters" aria-label="filter rules">
<div class="group" role="group" aria-label="status">${buttons}</div>
<label>area <select id="filter-area"><option value="all">all areas</option>${areas}</select></label>
<label>find <input type="search" id="filter-text" placeholder="rule id or words"></label>
<span id="shown">${doc.rules.length} of ${doc.rules.length} rules shown</span>
</nav>`;
}

function ruleTable(doc: ResultsDocument): string {
  const rows = doc.rules.map((r) => {
    const link = doesNotHold(r.status) ? `<a href="#rule-${esc(r.id)}">${esc(r.id)}</a>` : esc(r.id);
    return (
      `<tr ${dataAttrs(r)}><td class="status status-${r.status}">${STATUS_MARK[r.status]} ${r.status}${baselineTag(r)}</td><td class="id">${link}</td>` +
      `<td>${r.level}</td><td class="area">${esc(r.area)}</td><td>${esc(r.reason)}</td><td class="num">${r.durationMs} ms</td></tr>`
    );
  });
  return `<table id="rules"><thead><tr><th>status</th><th>rule</th><th>level</th><th>area</th><th>reason</th><th>time</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table>`;
}

function ruleDetail(
  r: ReportRule,
  bySeq: ReadonlyMap<number, Exchange>,
  images: ReadonlyMap<string, string>,
  client: boolean,
  scripts: ReadonlyMap<string, string>,
): string {
  const failed = r.checks.filter((c) => !c.ok);
  const passed = r.checks.filter((c) => c.ok);
  const parts: string[] = [];
  parts.push(
    `<h3><span class="status status-${r.status}">${STATUS_MARK[r.status]} ${r.status}</span> ` +
      `${esc(r.id)} <span class="tag">${r.level}</span>${baselineTag(r)}</h3>`,
  );
  parts.push(`<p class="rule-text">${esc(r.section)}: ${esc(r.text)}</p>`, `<p class="reason">${esc(r.reason)}</p>`);
  if (failed.length > 0) parts.push('<h4>Failed checks</h4>', checkTable(failed));
  const shots = failed.filter((c) => c.screenshot !== undefined);
  if (shots.length > 0) parts.push('<h4>The page at the failing step</h4>', ...shots.map((c) => screenshot(c, images)));
  if (passed.length > 0) parts.push(`<details><summary>${passed.length} check(s) that held</summary>${checkTable(passed)}</details>`);
  if (r.observations.length > 0)
    parts.push('<h4>Observed (the spec leaves it open)</h4>', `<ul>${r.observations.map((o) => `<li>${esc(o)}</li>`).join('')}</ul>`);
  if (r.replay) parts.push('<h4>Replay the property</h4>', `<pre class="replay"><code>${esc(r.replay)}</code></pre>`);
  if (r.reproduce) {
    const vars =
      r.reproduce.variables.length > 0
        ? `<p>Set first:</p><ul class="vars">${r.reproduce.variables.map((v) => `<li><code>${esc(v.name)}</code>: ${esc(v.meaning)}</li>`).join('')}</ul>`
        : '';
    parts.push(`<h4>Reproduce (bash; request #${r.reproduce.exchange})</h4>`, vars, `<pre class="curl"><code>${esc(r.reproduce.curl)}</code></pre>`);
    const file = r.reproduce.script;
    const script = file === undefined ? undefined : scripts.get(file);
    if (file !== undefined && script !== undefined) {
      parts.push(
        `<details><summary>The whole sequence that led to it (bash: <code>${esc(file)}</code>, next to this file; ` +
          'exit 1 when the failure reproduces)</summary>',
        `<pre class="script"><code>${esc(script)}</code></pre></details>`,
      );
    }
  }
  const seqs = r.exchanges.filter((s) => bySeq.has(s));
  if (seqs.length > 0) {
    const judged = r.reproduce?.exchange ?? seqs[seqs.length - 1];
    parts.push(`<h4>Exchanges (${seqs.length})</h4>`, seqs.map((s) => exchangeBlock(bySeq.get(s)!, s === judged)).join('\n'));
  } else {
    parts.push(
      client
        ? '<p class="muted">Judged on what the client printed and how it exited: see <a href="#client-runs">Client runs</a>.</p>'
        : '<p class="muted">No exchange recorded for this rule.</p>',
    );
  }
  return `<article class="rule-detail detail-${r.status}" id="rule-${esc(r.id)}" ${dataAttrs(r)}>\n${parts.join('\n')}\n</article>`;
}

/** A failed browser check's screenshot (embedded), or why none was kept. */
function screenshot(c: ReportCheck, images: ReadonlyMap<string, string>): string {
  const shot = c.screenshot!;
  const caption = `${shot.step}: ${shot.page}`;
  const data = shot.file === undefined ? undefined : images.get(shot.file);
  if (data === undefined) return `<p class="muted">${esc(caption)}: ${esc(shot.withheld ?? 'no screenshot')}</p>`;
  const image = `<img src="data:image/png;base64,${data}" alt="${esc(`the page at: ${caption}`)}">`;
  return `<figure class="screenshot">${image}<figcaption>${esc(caption)} (${esc(shot.file!)}; the token and password fields are masked)</figcaption></figure>`;
}

/** A check's id under its title: what a baseline waives. */
function checkId(c: ReportCheck): string {
  return c.id === undefined ? '' : `<br><small class="muted">${esc(c.id)}</small>`;
}

function checkTable(checks: readonly ReportCheck[]): string {
  const rows = checks.map(
    (c) =>
      `<tr><td class="${c.ok ? 'ok' : 'bad'}">${c.ok ? STATUS_MARK.passed : STATUS_MARK.failed}</td>` +
      `<td>${esc(c.title)}${checkId(c)}</td><td>${esc(c.expected)}</td><td>${esc(c.actual)}</td>` +
      `<td class="num">${c.exchanges.length > 0 ? esc(`#${c.exchanges[c.exchanges.length - 1]}`) : ''}</td></tr>`,
  );
  const head = '<thead><tr><th></th><th>check</th><th>expected</th><th>actual</th><th>last request</th></tr></thead>';
  return `<table class="checks">${head}<tbody>${rows.join('')}</tbody></table>`;
}

function exchangeBlock(e: Exchange, judged: boolean): string {
  const outcome = e.response ? String(e.response.status) : e.error ? `${e.error.code}` : 'no answer';
  const summary =
    `#${e.seq} ${e.request.method} ${e.request.url} → ${outcome}` +
    `${e.durationMs !== undefined ? ` (${Math.round(e.durationMs)} ms)` : ''}${e.test ? ` · ${e.test}` : ''}`;
  const req = [`${e.request.method} ${e.request.url}`, ...headerLines(e.request.headers)];
  if (e.request.body !== undefined && e.request.body !== '') req.push('', body(e.request.body));
  let res: string;
  if (e.response) {
    const lines = [`HTTP ${e.response.status}`, ...headerLines(e.response.headers)];
    if (e.response.body !== '') lines.push('', body(e.response.body));
    res = lines.join('\n');
  } else {
    res = e.error ? `${e.error.code}: ${e.error.message}` : '(no response recorded)';
  }
  return `<details class="exchange${judged ? ' judged' : ''}"${judged ? ' open' : ''} id="exchange-${e.seq}"><summary>${esc(summary)}</summary>
<div class="pair"><div><h4>Request</h4><pre>${esc(req.join('\n'))}</pre></div><div><h4>Response</h4><pre>${esc(res)}</pre></div></div></details>`;
}

function observations(doc: ResultsDocument): string {
  const rules = doc.rules.filter((r) => r.observations.length > 0 && !doesNotHold(r.status));
  if (rules.length === 0) return '';
  const items = rules.map((r) => `<li ${dataAttrs(r)}><strong>${esc(r.id)}</strong>: ${r.observations.map(esc).join('; ')}</li>`);
  return `<h2>Observed where the spec is silent</h2><ul>${items.join('\n')}</ul>`;
}

function headerLines(headers: Record<string, string>): string[] {
  return Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
}

/** A body as text, JSON pretty-printed, cut at MAX_BODY characters. */
function body(text: string): string {
  let out = text;
  try {
    const first = text.trimStart()[0];
    if (first === '{' || first === '[') out = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    /* not JSON: as it is */
  }
  return out.length > MAX_BODY ? `${out.slice(0, MAX_BODY)}\n… ${out.length - MAX_BODY} more characters in transcript.jsonl` : out;
}

function dataAttrs(r: ReportRule): string {
  return `data-rule="${esc(r.id)}" data-status="${esc(r.status)}" data-area="${esc(r.area)}"`;
}

function baselineTag(r: ReportRule): string {
  const why = r.baselineReason === undefined ? '' : ` title="${esc(r.baselineReason)}"`;
  if (r.baseline === 'expected') return `<span class="tag"${why}>expected (baseline)</span>`;
  if (r.baseline === 'accepted') return `<span class="tag"${why}>accepted (baseline): ${esc(r.baselineReason ?? '')}</span>`;
  if (r.baseline === 'new-failure') return '<span class="tag new">new</span>';
  if (r.baseline === 'now-passing') return '<span class="tag">now passing: remove from baseline</span>';
  return '';
}

function sha256(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}
