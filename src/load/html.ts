/**
 * The HTML page of a load result: one self-contained file (inline CSS and SVG, no script, no CDN)
 * with the summary (machine included, and a plain warning when the target was the built-in
 * reference server), thresholds, broken chains, the capacity search (achieved rate and p99 against
 * offered rate, the knee marked), throughput over time (the last, partial second drawn as a rate),
 * latency percentiles over time, and the latency percentile spectrum by status class. Every text is
 * escaped; the result holds no token to begin with, and the writer passes the page through the
 * redactor anyway.
 */
import { esc } from '../text/html.js';
import { lineChart, type Series } from './charts.js';
import { decode, spectrum, summarise, type LatencySummary } from './histograms.js';
import { describeMachine } from './machine.js';
import { metricsOf } from './metrics.js';
import { STATUS_CLASSES, type Capacity, type LoadResult } from './types.js';
import { formatCount, formatUs, formatUsTick } from './units.js';

const COLOURS: Record<string, string> = { all: '#222', '1xx': '#888', '2xx': '#2a7', '3xx': '#58c', '4xx': '#d80', '5xx': '#c33' };

const secondsTick = (v: number) => `${Number(v.toFixed(3))}s`;

/**
 * Each second of the timeline as a point of the charts: at the middle of the time it covers, its
 * answers as a rate. The last second is often partial (a 1.5 s run ends with half a second): drawn
 * as its rate, it does not fall to half the line like a raw count would.
 */
export function secondPoints(result: LoadResult): ({ x: number; perS: number; failedPerS: number } & LatencySummary)[] {
  return result.timeline.map((s) => {
    const h = decode(s.latency);
    const sum = summarise(h);
    h.destroy();
    const span = s.spanS ?? 1;
    return { x: s.s + span / 2, perS: s.responses / span, failedPerS: (s.non2xx + s.errors + s.timeouts) / span, ...sum };
  });
}

export function renderHtml(result: LoadResult): string {
  const m = metricsOf(result);
  const perSecond = secondPoints(result);
  const withAnswers = perSecond.filter((p) => p.count > 0);
  const throughput = lineChart({
    title: 'Answers per second (measured phase; a last, partial second as its rate)',
    series: [
      { name: 'answers/s', colour: '#2a7', points: perSecond.map((p) => [p.x, p.perS] as const) },
      { name: 'failed/s', colour: '#c33', points: perSecond.map((p) => [p.x, p.failedPerS] as const) },
    ],
    xFormat: secondsTick,
    xFromZero: true,
    xMax: result.measuredS,
    yFormat: formatCount,
    xLabel: 'time in the measured phase',
  });
  const overTime = lineChart({
    title: 'Latency percentiles per second (all statuses, as answered)',
    series: [
      { name: 'p50', colour: '#2a7', points: withAnswers.map((p) => [p.x, p.p50] as const) },
      { name: 'p90', colour: '#58c', points: withAnswers.map((p) => [p.x, p.p90] as const) },
      { name: 'p99', colour: '#d80', points: withAnswers.map((p) => [p.x, p.p99] as const) },
      { name: 'max', colour: '#c33', points: withAnswers.map((p) => [p.x, p.max] as const) },
    ],
    xFormat: secondsTick,
    xFromZero: true,
    xMax: result.measuredS,
    yFormat: formatUsTick,
    xLabel: 'time in the measured phase',
  });
  // Spectrum: x is -log10(1 - q), so 90, 99, 99.9 and 99.99 are evenly spaced.
  const qx = (q: number) => (q >= 100 ? 5.3 : -Math.log10(1 - q / 100));
  const spectra: Series[] = [];
  for (const cls of STATUS_CLASSES) {
    const enc = result.latency.byClass[cls];
    if (enc === undefined) continue;
    const h = decode(enc);
    spectra.push({ name: cls, colour: COLOURS[cls]!, points: spectrum(h).map((p) => [qx(p.q), p.us] as const) });
    h.destroy();
  }
  if (result.latency.corrected) {
    const h = decode(result.latency.corrected);
    spectra.push({ name: 'all, CO-corrected', colour: '#222', points: spectrum(h).map((p) => [qx(p.q), p.us] as const) });
    h.destroy();
  }
  const spectrumChart = lineChart({
    title: 'Latency by percentile and status class (measured phase)',
    series: spectra,
    xTicks: [0, 90, 99, 99.9, 99.99, 99.999].map((q) => ({ x: qx(q), label: `${q}%` })),
    xFormat: String,
    yFormat: formatUsTick,
    xLabel: 'percentile',
  });
  const s = result.settings;
  const rows: [string, string][] = [
    ['profile', result.profile],
    [
      'target',
      `${result.target.baseUrl} / ${result.target.identityUrl}${result.target.builtIn ? ' (built-in reference server)' : ''}` +
        `${result.target.faults.length ? `, faults: ${result.target.faults.join(', ')}` : ''}`,
    ],
    ['run', `${result.runId}, ${result.startedAt} → ${result.finishedAt}`],
    [
      'load',
      result.capacity
        ? `capacity search: ${s.connections} connection(s), steps of ${result.capacity.settings.stepS} s`
        : `${s.connections} connection(s), ${result.measuredS.toFixed(1)} s measured, warmup ${s.warmupS} s, ` +
          `${s.rate !== null ? `fixed rate ${s.rate} req/s` : 'closed model'}, chains from ${s.chains}` +
          `${s.shard ? `, shard ${s.shard.index}/${s.shard.count}` : ''}`,
    ],
    ['throughput', `${formatCount(m.rps)} answers/s (${formatCount(m.responses)} answers)`],
    [
      'latency',
      `p50 ${formatUs(m.latency.p50)} · p90 ${formatUs(m.latency.p90)} · p99 ${formatUs(m.latency.p99)} · p99.9 ${formatUs(m.latency.p999)} · ` +
        `max ${formatUs(m.latency.max)}${m.corrected ? ' (corrected for coordinated omission)' : ''}`,
    ],
    [
      'correctness',
      `${m.broken} broken chain(s), ${m.lost} lost, ${m.malformed} against the spec, ${m.non2xx} unexpected non-2xx, ` +
        `${m.transportErrors} transport error(s), ${m.timeouts} timeout(s); ${formatCount(m.rotations)} rotation(s)`,
    ],
  ];
  if (result.machine) rows.push(['machine', describeMachine(result.machine)]);
  if (result.mergedFrom.length > 0) {
    const inputs = result.mergedFrom.map((f) => `${f.file}${f.shard ? ` (shard ${f.shard})` : ''}${f.machine ? `: ${describeMachine(f.machine)}` : ''}`);
    rows.push(['merged from', inputs.join('; ')]);
  }
  const builtIn = result.target.builtIn
    ? '<p class="warn">The target was tack\'s built-in reference server, running in the same process as the load generator. ' +
      'These figures show tack and the reference working; they are no capacity of any real system.</p>'
    : '';
  const verdict =
    result.verdict.exitCode === 0 ? '<p class="pass">PASSED</p>' : result.verdict.reasons.map((r) => `<p class="fail">FAILED: ${esc(r)}</p>`).join('');
  const judgedAt = result.capacity
    ? ` (at ${result.capacity.maxRate !== null ? `${formatCount(result.capacity.maxRate)} req/s, the highest step that held` : 'the first step'})`
    : '';
  const thresholds = result.thresholds.length
    ? `<h2>Thresholds${esc(judgedAt)}</h2><table><tr><th></th><th>threshold</th><th>actual</th><th>from</th></tr>${result.thresholds
        .map(
          (t) => `<tr><td class="${t.ok ? 'pass' : 'fail'}">${t.ok ? '✔' : '✘'}</td><td>${esc(t.expr)}</td><td>${esc(t.actual)}</td><td>${t.source}</td></tr>`,
        )
        .join('')}</table>`
    : '';
  const breaks = result.breaks.length
    ? `<h2>Broken chains</h2><table><tr><th>chain</th><th>what</th><th>at</th><th>after rotations</th><th>answer</th></tr>${result.breaks
        .map(
          (b) =>
            `<tr><td>${esc(b.chain)}${b.shard ? ` [shard ${esc(b.shard)}]` : ''}</td>` +
            `<td>${b.cause === 'rotation' ? 'rotation broke under load' : 'lost after its own request failed'}</td>` +
            `<td>${b.atS.toFixed(2)} s (${b.phase})</td><td>${b.afterRotations}</td><td>${esc(b.error)}</td></tr>`,
        )
        .join('')}</table>${result.breaksNotListed ? `<p>… and ${result.breaksNotListed} more.</p>` : ''}`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>tack load ${esc(result.profile)} ${esc(result.runId)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#222}
table{border-collapse:collapse;margin:8px 0}td,th{padding:3px 10px;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
th{font-weight:600}.pass{color:#1a7f37;font-weight:600}.fail{color:#c62828;font-weight:600}.muted{fill:#777;color:#777}
.warn{background:#fff4d6;border-left:4px solid #d80;padding:6px 10px;max-width:80em}
svg{width:100%;height:auto;display:block}svg text{font-size:12px;fill:#444}.grid{stroke:#e5e5e5}.axis{stroke:#999}
figure{margin:16px 0}figcaption{font-weight:600;margin-bottom:4px}td.num{text-align:right}
</style></head><body>
<h1>tack load: ${esc(result.profile)}</h1>
${verdict}
${builtIn}
<table>${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</table>
${thresholds}
${breaks}
${result.capacity ? capacitySection(result.capacity) : ''}
${throughput}
${overTime}
${spectrumChart}
<p class="muted">Latencies are recorded by tack in microseconds for every answer (HdrHistogram, 3 significant digits),
from the request being handed to the connection pool to the whole answer read. Result schema ${esc(result.schema)}.</p>
</body></html>
`;
}

/** The capacity search: its step table, and achieved rate and p99 against offered rate with the knee marked. */
function capacitySection(c: Capacity): string {
  const steps = c.steps;
  const breached = steps.find((x) => !x.held);
  const markers = [
    ...(c.maxRate !== null ? [{ x: c.maxRate, label: `held: ${formatCount(c.maxRate)} req/s`, colour: '#1a7f37' }] : []),
    ...(breached ? [{ x: breached.rate, label: `breached: ${formatCount(breached.rate)} req/s`, colour: '#c62828' }] : []),
  ];
  const rates = steps.map((x) => x.rate);
  const xLog = rates.length > 1 && Math.max(...rates) / Math.min(...rates) >= 8;
  const achieved = lineChart({
    title: 'Capacity: answers per second against the offered rate',
    series: [
      { name: 'offered (ideal)', colour: '#999', dashed: true, points: steps.map((x) => [x.rate, x.rate] as const) },
      { name: 'achieved', colour: '#2a7', dots: true, points: steps.map((x) => [x.rate, x.achieved] as const) },
    ],
    xLog,
    xFromZero: !xLog,
    markers,
    xFormat: formatCount,
    yFormat: formatCount,
    xLabel: 'offered rate (req/s)',
  });
  const latency = lineChart({
    title: 'Capacity: latency against the offered rate (coordinated-omission corrected)',
    series: [
      { name: 'p50', colour: '#58c', dots: true, points: steps.map((x) => [x.rate, x.p50] as const) },
      { name: 'p99', colour: '#d80', dots: true, points: steps.map((x) => [x.rate, x.p99] as const) },
    ],
    xLog,
    xFromZero: !xLog,
    markers,
    xFormat: formatCount,
    yFormat: formatUsTick,
    xLabel: 'offered rate (req/s)',
  });
  const head = ['offered req/s', 'achieved', 'p50', 'p99', 'errors', 'broken chains', '', 'why not'].map((h) => `<th>${h}</th>`).join('');
  const num = (v: string) => `<td class="num">${v}</td>`;
  const body = steps.map((x) => {
    const cells = [formatCount(x.rate), formatCount(x.achieved), formatUs(x.p50), formatUs(x.p99), String(x.errors), String(x.brokenChains)];
    const figures = cells.map(num).join('');
    const verdict = `<td class="${x.held ? 'pass' : 'fail'}">${x.held ? 'held' : 'breached'}</td><td>${esc(x.reasons.join('; '))}</td>`;
    return `<tr>${figures}${verdict}</tr>`;
  });
  const table = `<table><tr>${head}</tr>${body.join('')}</table>`;
  const verdict =
    c.maxRate !== null
      ? `<p class="pass">Highest offered rate that held: ${formatCount(c.maxRate)} req/s.</p>`
      : `<p class="fail">No step held, not even ${formatCount(c.settings.startRate)} req/s.</p>`;
  return `<h2>Capacity search</h2>${verdict}${table}${achieved}${latency}`;
}
