/**
 * The HTML page of a load result: one self-contained file (inline CSS and SVG, no script, no CDN)
 * with the summary, throughput over time, latency percentiles over time, the latency percentile
 * spectrum by status class, thresholds and broken chains. Every text is escaped; the result holds
 * no token to begin with, and the writer passes the page through the redactor anyway.
 */
import { decode, spectrum, summarise } from './histograms.js';
import { metricsOf } from './metrics.js';
import { STATUS_CLASSES, type LoadResult } from './types.js';
import { formatCount, formatUs } from './units.js';
import { esc } from '../reporters/html.js';

interface Series {
  readonly name: string;
  readonly colour: string;
  readonly points: readonly (readonly [number, number])[];
}

interface Chart {
  readonly title: string;
  readonly series: readonly Series[];
  readonly xTicks: readonly { x: number; label: string }[];
  readonly yFormat: (v: number) => string;
  readonly xLabel: string;
}

const W = 760;
const H = 260;
const PAD = { left: 64, right: 16, top: 28, bottom: 40 };


function niceMax(v: number): number {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

function lineChart(c: Chart): string {
  const xs = c.series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = c.series.flatMap((s) => s.points.map((p) => p[1]));
  if (xs.length === 0) return `<figure><figcaption>${esc(c.title)}</figcaption><p class="muted">no data</p></figure>`;
  const x0 = Math.min(...xs, ...c.xTicks.map((t) => t.x));
  const x1 = Math.max(...xs, ...c.xTicks.map((t) => t.x), x0 + 1);
  const y1 = niceMax(Math.max(...ys));
  const sx = (x: number) => PAD.left + ((x - x0) / (x1 - x0)) * (W - PAD.left - PAD.right);
  const sy = (y: number) => H - PAD.bottom - (y / y1) * (H - PAD.top - PAD.bottom);
  const parts: string[] = [];
  for (let i = 0; i <= 4; i++) {
    const v = (y1 * i) / 4;
    parts.push(`<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${sy(v)}" y2="${sy(v)}" class="grid"/>`);
    parts.push(`<text x="${PAD.left - 6}" y="${sy(v) + 4}" text-anchor="end">${esc(c.yFormat(v))}</text>`);
  }
  for (const t of c.xTicks) parts.push(`<text x="${sx(t.x)}" y="${H - PAD.bottom + 16}" text-anchor="middle">${esc(t.label)}</text>`);
  parts.push(`<text x="${(PAD.left + W - PAD.right) / 2}" y="${H - 6}" text-anchor="middle" class="muted">${esc(c.xLabel)}</text>`);
  c.series.forEach((s, i) => {
    if (s.points.length === 0) return;
    const d = s.points.map((p, j) => `${j === 0 ? 'M' : 'L'}${sx(p[0]).toFixed(1)},${sy(p[1]).toFixed(1)}`).join(' ');
    parts.push(`<path d="${d}" fill="none" stroke="${s.colour}" stroke-width="2"/>`);
    if (s.points.length === 1) parts.push(`<circle cx="${sx(s.points[0]![0])}" cy="${sy(s.points[0]![1])}" r="3" fill="${s.colour}"/>`);
    parts.push(`<rect x="${PAD.left + 8 + i * 120}" y="8" width="10" height="10" fill="${s.colour}"/><text x="${PAD.left + 22 + i * 120}" y="17">${esc(s.name)}</text>`);
  });
  return `<figure><figcaption>${esc(c.title)}</figcaption><svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${esc(c.title)}">${parts.join('')}</svg></figure>`;
}

function timeTicks(n: number): { x: number; label: string }[] {
  const step = Math.max(1, Math.ceil(n / 10));
  const out: { x: number; label: string }[] = [];
  for (let s = 0; s <= n; s += step) out.push({ x: s, label: `${s}s` });
  return out;
}

const COLOURS: Record<string, string> = { all: '#222', '1xx': '#888', '2xx': '#2a7', '3xx': '#58c', '4xx': '#d80', '5xx': '#c33' };

export function renderHtml(result: LoadResult): string {
  const m = metricsOf(result);
  const n = result.timeline.length;
  const perSecond = result.timeline.map((s) => {
    const h = decode(s.latency);
    const sum = summarise(h);
    h.destroy();
    return { s: s.s, responses: s.responses, failures: s.non2xx + s.errors + s.timeouts, ...sum };
  });
  const throughput = lineChart({
    title: 'Answers per second',
    series: [
      { name: 'answers/s', colour: '#2a7', points: perSecond.map((p) => [p.s + 0.5, p.responses] as const) },
      { name: 'failed/s', colour: '#c33', points: perSecond.map((p) => [p.s + 0.5, p.failures] as const) },
    ],
    xTicks: timeTicks(n),
    yFormat: (v) => formatCount(v),
    xLabel: 'time in the measured phase',
  });
  const overTime = lineChart({
    title: 'Latency percentiles per second (all statuses, as answered)',
    series: [
      { name: 'p50', colour: '#2a7', points: perSecond.filter((p) => p.count > 0).map((p) => [p.s + 0.5, p.p50] as const) },
      { name: 'p90', colour: '#58c', points: perSecond.filter((p) => p.count > 0).map((p) => [p.s + 0.5, p.p90] as const) },
      { name: 'p99', colour: '#d80', points: perSecond.filter((p) => p.count > 0).map((p) => [p.s + 0.5, p.p99] as const) },
      { name: 'max', colour: '#c33', points: perSecond.filter((p) => p.count > 0).map((p) => [p.s + 0.5, p.max] as const) },
    ],
    xTicks: timeTicks(n),
    yFormat: formatUs,
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
    yFormat: formatUs,
    xLabel: 'percentile',
  });
  const s = result.settings;
  const rows: [string, string][] = [
    ['profile', result.profile],
    ['target', `${result.target.baseUrl} / ${result.target.identityUrl}${result.target.builtIn ? ' (built-in reference server)' : ''}${result.target.faults.length ? `, faults: ${result.target.faults.join(', ')}` : ''}`],
    ['run', `${result.runId}, ${result.startedAt} → ${result.finishedAt}`],
    ['load', `${s.connections} connection(s), ${result.measuredS.toFixed(1)} s measured, warmup ${s.warmupS} s, ${s.rate !== null ? `fixed rate ${s.rate} req/s` : 'closed model'}, chains from ${s.chains}${s.shard ? `, shard ${s.shard.index}/${s.shard.count}` : ''}`],
    ['throughput', `${formatCount(m.rps)} answers/s (${formatCount(m.responses)} answers)`],
    ['latency', `p50 ${formatUs(m.latency.p50)} · p90 ${formatUs(m.latency.p90)} · p99 ${formatUs(m.latency.p99)} · p99.9 ${formatUs(m.latency.p999)} · max ${formatUs(m.latency.max)}${m.corrected ? ' (corrected for coordinated omission)' : ''}`],
    ['correctness', `${m.broken} broken chain(s), ${m.lost} lost, ${m.malformed} against the spec, ${m.non2xx} unexpected non-2xx, ${m.transportErrors} transport error(s), ${m.timeouts} timeout(s); ${formatCount(m.rotations)} rotation(s)`],
  ];
  if (result.mergedFrom.length > 0) rows.push(['merged from', result.mergedFrom.map((f) => `${f.file}${f.shard ? ` (shard ${f.shard})` : ''}`).join(', ')]);
  const verdict = result.verdict.exitCode === 0 ? '<p class="pass">PASSED</p>' : result.verdict.reasons.map((r) => `<p class="fail">FAILED: ${esc(r)}</p>`).join('');
  const thresholds = result.thresholds.length
    ? `<h2>Thresholds</h2><table><tr><th></th><th>threshold</th><th>actual</th><th>from</th></tr>${result.thresholds
        .map((t) => `<tr><td class="${t.ok ? 'pass' : 'fail'}">${t.ok ? '✔' : '✘'}</td><td>${esc(t.expr)}</td><td>${esc(t.actual)}</td><td>${t.source}</td></tr>`)
        .join('')}</table>`
    : '';
  const breaks = result.breaks.length
    ? `<h2>Broken chains</h2><table><tr><th>chain</th><th>what</th><th>at</th><th>after rotations</th><th>answer</th></tr>${result.breaks
        .map(
          (b) =>
            `<tr><td>${esc(b.chain)}${b.shard ? ` [shard ${esc(b.shard)}]` : ''}</td><td>${b.cause === 'rotation' ? 'rotation broke under load' : 'lost after its own request failed'}</td><td>${b.atS.toFixed(2)} s (${b.phase})</td><td>${b.afterRotations}</td><td>${esc(b.error)}</td></tr>`,
        )
        .join('')}</table>${result.breaksNotListed ? `<p>… and ${result.breaksNotListed} more.</p>` : ''}`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>tack load ${esc(result.profile)} ${esc(result.runId)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#222;max-width:980px}
table{border-collapse:collapse;margin:8px 0}td,th{padding:3px 10px;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
th{font-weight:600}.pass{color:#1a7f37;font-weight:600}.fail{color:#c62828;font-weight:600}.muted{fill:#777;color:#777}
svg text{font-size:11px;fill:#444}.grid{stroke:#e5e5e5}figure{margin:16px 0}figcaption{font-weight:600;margin-bottom:4px}
</style></head><body>
<h1>tack load: ${esc(result.profile)}</h1>
${verdict}
<table>${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</table>
${thresholds}
${breaks}
${throughput}
${overTime}
${spectrumChart}
<p class="muted">Latencies are recorded by tack in microseconds for every answer (HdrHistogram, 3 significant digits), from the request being written to the whole answer read. Result schema ${esc(result.schema)}.</p>
</body></html>
`;
}
