/**
 * The HTML page of a load result: one self-contained file (inline CSS and SVG, no script, no CDN)
 * with the summary (machine and load generator included, a warning when the generator was
 * saturated, and a plain warning when the target was the built-in reference server), thresholds,
 * broken chains, the figures per request kind, the capacity search (achieved rate and p99 against
 * offered rate, the knee marked), throughput over time (the last, partial second drawn as a rate),
 * latency percentiles over time (the run's p99 beside them: the summary's figure), and the latency
 * percentile spectrum by status class and by request kind. Seconds (or steps) in which the generator
 * was saturated are marked on the charts. Every text is escaped; the result holds no token to begin
 * with, and the writer passes the page through the redactor anyway.
 */
import { esc } from '../../text/escape-html.js';
import { lineChart, type Series } from './charts.js';
import { describeHealth, saturationWarning, secondSaturated } from '../engine/generator.js';
import { decode, spectrum, summarise, type LatencySummary } from '../engine/histograms.js';
import { describeMachine } from '../engine/machine.js';
import { endpointView, headlineView, latencyHistogram, metricsOf } from '../results/metrics.js';
import { correctnessText, endpointRows, sutLines } from './summary.js';
import { capacitySection, SATURATED } from './capacity-html.js';
import { samplesNote } from '../results/thresholds.js';
import { REQUEST_KINDS, type RequestKind, STATUS_CLASSES, type LoadResult } from '../types.js';
import { formatCount, formatUs, formatUsTick } from '../units.js';

const COLOURS: Record<string, string> = { all: '#222', '1xx': '#888', '2xx': '#2a7', '3xx': '#58c', '4xx': '#d80', '5xx': '#c33' };
/** The race probe: its set-up and policy, probes and forks per request kind, and each fork. */
function raceSection(result: LoadResult): string {
  const race = result.race!;
  const verdict = race.policy === null ? '' : race.judged ? ' A fork fails the run.' : ' A fork is observed, not failed: the policy allows two usable tokens.';
  const kinds = REQUEST_KINDS.flatMap((kind) => {
    const m = metricsOf(endpointView(result, kind));
    return m.raceProbes > 0 || m.forks > 0 ? [`<tr><td>${kind}</td><td class="num">${m.raceProbes}</td><td class="num">${m.forks}</td></tr>`] : [];
  });
  const perKind = kinds.length ? `<table><tr><th>request</th><th>race probes</th><th>forked</th></tr>${kinds.join('')}</table>` : '';
  const forks = race.forks.length
    ? `<table><tr><th>chain</th><th>at</th><th>after rotations</th><th>returned a token</th><th>still exchanged</th></tr>${race.forks
        .map(
          (f) =>
            `<tr><td class="fail">${esc(f.chain)}${f.shard ? ` [shard ${esc(f.shard)}]` : ''}</td><td>${f.atS.toFixed(2)} s (${f.phase})</td>` +
            `<td>${f.afterRotations}</td><td>${f.exchanged} of 2</td><td>${f.alive}</td></tr>`,
        )
        .join('')}</table>${race.forksNotListed ? `<p>… and ${race.forksNotListed} more.</p>` : ''}`
    : '';
  const chains = race.policy === null ? '' : `${race.chains} chain(s) sent their token twice at the same moment now and then. `;
  return `<h2>Race probe</h2><p>${esc(chains)}${esc(race.seen)}.${esc(verdict)}</p>${perKind}${forks}`;
}

const ENDPOINT_COLUMNS = ['request', 'answers', 'req/s', 'p50', 'p90', 'p99', 'p99.9', 'max', 'failed', 'statuses'];
const KIND_COLOURS: Readonly<Record<RequestKind, string>> = { exchange: '#58c', search: '#2a7', mint: '#d80', refresh: '#a5c' };

/** The seconds in which the generator was saturated, as ranges of the time axis (adjacent ones joined). */
export function saturatedRanges(result: LoadResult): { from: number; to: number }[] {
  const out: { from: number; to: number }[] = [];
  for (const s of result.timeline) {
    if (!secondSaturated(s)) continue;
    const last = out[out.length - 1];
    if (last && Math.abs(last.to - s.s) < 1e-9) last.to = s.s + (s.spanS ?? 1);
    else out.push({ from: s.s, to: s.s + (s.spanS ?? 1) });
  }
  return out;
}

/** Qx for the spectrum charts: x is -log10(1 - q), so 90, 99, 99.9 and 99.99 are evenly spaced. */
const qx = (q: number) => (q >= 100 ? 5.3 : -Math.log10(1 - q / 100));

function spectrumChart(title: string, spectra: Series[]): string {
  return lineChart({
    title,
    series: spectra,
    xTicks: [0, 90, 99, 99.9, 99.99, 99.999].map((q) => ({ x: qx(q), label: `${q}%` })),
    xFormat: String,
    yFormat: formatUsTick,
    xLabel: 'percentile',
  });
}

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

export function renderLoadHtml(result: LoadResult): string {
  const { view, label } = headlineView(result);
  const m = metricsOf(view);
  const perSecond = secondPoints(result);
  const withAnswers = perSecond.filter((p) => p.count > 0);
  const ranges = saturatedRanges(result);
  const bands = ranges.length > 0 ? { ranges, ...SATURATED } : undefined;
  const measure = result.latency.corrected ? 'from when each request fell due (coordinated-omission corrected)' : 'as answered';
  const throughput = lineChart({
    title: 'Answers per second (measured phase; a last, partial second as its rate)',
    series: [
      { name: 'answers/s', colour: '#2a7', points: perSecond.map((p) => [p.x, p.perS] as const) },
      { name: 'failed/s', colour: '#c33', points: perSecond.map((p) => [p.x, p.failedPerS] as const) },
    ],
    xFormat: secondsTick,
    xFromZero: true,
    xEnd: result.measuredS,
    ...(bands ? { bands } : {}),
    yFormat: formatCount,
    xLabel: 'time in the measured phase',
  });
  // The run's own p99 beside the per-second ones: the figure the summary and the console give.
  const whole = metricsOf(result).latency;
  const runP99: Series[] =
    result.capacity || whole.count === 0
      ? []
      : [{ name: 'p99 of the run', colour: '#d80', dashed: true, points: [[0, whole.p99] as const, [result.measuredS, whole.p99] as const] }];
  const overTime = lineChart({
    title: `Latency percentiles per second (all statuses, ${measure})`,
    series: [
      { name: 'p50', colour: '#2a7', points: withAnswers.map((p) => [p.x, p.p50] as const) },
      { name: 'p90', colour: '#58c', points: withAnswers.map((p) => [p.x, p.p90] as const) },
      { name: 'p99', colour: '#d80', points: withAnswers.map((p) => [p.x, p.p99] as const) },
      { name: 'max', colour: '#c33', points: withAnswers.map((p) => [p.x, p.max] as const) },
      ...runP99,
    ],
    xFormat: secondsTick,
    xFromZero: true,
    xEnd: result.measuredS,
    ...(bands ? { bands } : {}),
    yFormat: formatUsTick,
    xLabel: 'time in the measured phase',
  });
  const spectra: Series[] = [];
  for (const cls of STATUS_CLASSES) {
    const enc = view.latency.byClass[cls];
    if (enc === undefined) continue;
    const h = decode(enc);
    spectra.push({ name: cls, colour: COLOURS[cls]!, points: spectrum(h).map((p) => [qx(p.q), p.us] as const) });
    h.destroy();
  }
  if (view.latency.corrected) {
    const h = decode(view.latency.corrected);
    spectra.push({ name: 'all, CO-corrected', colour: '#222', points: spectrum(h).map((p) => [qx(p.q), p.us] as const) });
    h.destroy();
  }
  const byClass = spectrumChart(`Latency by percentile and status class (${label ? 'the headline step' : 'measured phase'})`, spectra);
  const kinds = REQUEST_KINDS.filter((k) => view.endpoints?.[k] !== undefined);
  const byKind =
    kinds.length > 1
      ? spectrumChart(
          `Latency by percentile and request kind (${label ? 'the headline step' : 'measured phase'}, ${measure})`,
          kinds.map((kind) => {
            const { h } = latencyHistogram(endpointView(view, kind));
            const points = spectrum(h).map((p) => [qx(p.q), p.us] as const);
            h.destroy();
            return { name: kind, colour: KIND_COLOURS[kind], points };
          }),
        )
      : '';
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
    ...(label ? ([['figures', label]] as [string, string][]) : []),
    ['throughput', `${formatCount(m.rps)} answers/s (${formatCount(m.responses)} answers)`],
    [
      'latency',
      `p50 ${formatUs(m.latency.p50)} · p90 ${formatUs(m.latency.p90)} · p99 ${formatUs(m.latency.p99)} · p99.9 ${formatUs(m.latency.p999)} · ` +
        `max ${formatUs(m.latency.max)}${m.corrected ? ' (corrected for coordinated omission)' : ''}`,
    ],
    ['correctness', correctnessText(result)],
  ];
  const [sut, perVcpu] = sutLines(result);
  if (sut) rows.unshift(['system under test', sut.replace(/^system under test: /, '')]);
  if (perVcpu) rows.push(['per vCPU', perVcpu.replace(/^per vCPU: /, '')]);
  if (result.stoppedEarly) rows.push(['stopped early', result.stoppedEarly.reason]);
  if (result.machine) rows.push(['machine', describeMachine(result.machine)]);
  if (result.generator) rows.push(['load generator', describeHealth(result.generator)]);
  if (result.mergedFrom.length > 0) {
    const inputs = result.mergedFrom.map((f) => `${f.file}${f.shard ? ` (shard ${f.shard})` : ''}${f.machine ? `: ${describeMachine(f.machine)}` : ''}`);
    rows.push(['merged from', inputs.join('; ')]);
  }
  const builtIn = result.target.builtIn
    ? '<p class="warn">The target was tack\'s built-in reference server, running in the same process as the load generator. ' +
      'These figures show tack and the reference working; they are no capacity of any real system.</p>'
    : '';
  const saturated = result.generator?.saturated
    ? `<p class="warn">⚠ ${esc(saturationWarning(result.generator, result.target.builtIn, result.machine))}</p>`
    : '';
  const verdict =
    result.verdict.exitCode === 0 ? '<p class="pass">PASSED</p>' : result.verdict.reasons.map((r) => `<p class="fail">FAILED: ${esc(r)}</p>`).join('');
  const judgedAt = result.capacity
    ? ` (at ${result.capacity.maxRate !== null ? `${formatCount(result.capacity.maxRate)} req/s, the highest step that held` : 'the first step'})`
    : '';
  const thresholds = result.thresholds.length
    ? `<h2>Thresholds${esc(judgedAt)}</h2><table><tr><th></th><th>threshold</th><th>actual</th><th>from</th><th>samples</th></tr>${result.thresholds
        .map((t) => {
          const note = samplesNote(t);
          const samples = note ? `<td class="fail">⚠ too few samples: ${esc(note)}</td>` : '<td></td>';
          const mark = `<td class="${t.ok ? 'pass' : 'fail'}">${t.ok ? '✔' : '✘'}</td>`;
          return `<tr>${mark}<td>${esc(t.expr)}</td><td>${esc(t.actual)}</td><td>${t.source}</td>${samples}</tr>`;
        })
        .join('')}</table>`
    : '';
  const endpoints = endpointRows(view);
  const endpointHead = ENDPOINT_COLUMNS.map((h) => `<th>${h}</th>`).join('');
  const endpointRow = (e: (typeof endpoints)[number]) =>
    `<tr><td>${esc(e.kind)}</td>${e.cells
      .slice(1)
      .map((c) => `<td class="num">${esc(c)}</td>`)
      .join('')}<td>${esc(e.statuses)}</td></tr>`;
  const endpointTable = endpoints.length
    ? `<h2>By request kind${label ? ` (${esc(label)})` : ''}</h2><table><tr>${endpointHead}</tr>${endpoints.map(endpointRow).join('')}</table>`
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
  const race = result.race ? raceSection(result) : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>tack load ${esc(result.profile)} ${esc(result.runId)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#222}
table{border-collapse:collapse;margin:8px 0}td,th{padding:3px 10px;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
th{font-weight:600}.pass{color:#1a7f37;font-weight:600}.fail{color:#c62828;font-weight:600}.muted{fill:#777;color:#777}
.warn{background:#fff4d6;border-left:4px solid #d80;padding:6px 10px;max-width:80em}
svg{width:100%;height:auto;display:block}svg text{font-size:12px;fill:#444}.grid{stroke:#e5e5e5}.axis{stroke:#999}
figure{margin:16px 0}figcaption{font-weight:600;margin-bottom:4px}td.num{text-align:right}td.nw{white-space:nowrap}td.why{min-width:30em}
</style></head><body>
<h1>tack load: ${esc(result.profile)}</h1>
${verdict}
${saturated}
${builtIn}
<table>${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</table>
${thresholds}
${breaks}
${race}
${endpointTable}
${result.capacity ? capacitySection(result.capacity) : ''}
${throughput}
${overTime}
${byClass}
${byKind}
<p class="muted">Latencies are recorded by tack in microseconds for every answer (HdrHistogram, 3 significant digits),
from the request being handed to the connection pool to the whole answer read. Result schema ${esc(result.schema)}.</p>
</body></html>
`;
}
