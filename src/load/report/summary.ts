/**
 * What `tack load` prints: a progress line once a second and, at the end, a summary table. Every
 * line is built from counts and chain labels (run-tagged test users), never from a token.
 */
import type { Progress } from '../engine/engine.js';
import { describeHealth, saturationWarning } from '../engine/generator.js';
import { decode, summarise, type LatencySummary } from '../engine/histograms.js';
import { endpointView, failuresOf, headlineView, metricsOf } from '../results/metrics.js';
import { samplesNote } from '../results/thresholds.js';
import { REQUEST_KINDS, STATUS_CLASSES, type LoadResult, type RaceProbeResult } from '../types.js';
import { capacityLine } from '../capacity/capacity.js';
import { describeMachine } from '../engine/machine.js';
import { formatCount, formatUs } from '../units.js';

/**
 * One line a second: answers per second and the p99 of that second's answers, the same figures as
 * the page's per-second charts. The last line covers the last, partial second as it was.
 */
export function progressLine(p: Progress): string {
  const phase = p.phase === 'warmup' ? ' warmup' : '';
  const at = p.final ? `${p.elapsedS.toFixed(1)}s` : `${p.elapsedS}s`;
  const last = p.final ? ` (last ${p.spanS.toFixed(1)} s)` : '';
  return (
    `  ${at.padStart(6)}${phase}  ${formatCount(p.perSecond).padStart(9)} req/s${last}  p99 ${p.p99Us > 0 ? formatUs(p.p99Us) : '-'}  ` +
    `errors ${formatCount(p.failures)}  broken chains ${p.broken}  generator busy ${Math.round(p.busyPct)}%`
  );
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function latencyRow(name: string, s: LatencySummary, measuredS: number): string[] {
  return [
    name,
    formatCount(s.count),
    measuredS > 0 ? formatCount(s.count / measuredS) : '-',
    formatUs(s.p50),
    formatUs(s.p90),
    formatUs(s.p99),
    formatUs(s.p999),
    formatUs(s.max),
  ];
}

/** The correctness counts of the whole run (every step of a search): nothing against the spec hides behind a headline. */
export function correctnessText(result: LoadResult): string {
  const m = metricsOf(result);
  return (
    `${m.broken} broken chain(s), ${m.lost} lost, ${m.forks} forked (of ${m.raceProbes} race probe(s)), ` +
    `${m.malformed} against the spec, ${m.non2xx} unexpected non-2xx, ` +
    `${m.transportErrors} transport error(s), ${m.timeouts} timeout(s); ${formatCount(m.rotations)} rotation(s)`
  );
}

/** The race probe: how it was set up, what one exchange at a time showed, each fork. */
function raceLines(race: RaceProbeResult): string[] {
  const out = [
    race.policy === null
      ? `race probe: ${race.seen}`
      : `race probe: ${race.chains} chain(s); ${race.seen}; a fork ${race.judged ? 'fails the run' : 'is observed, not failed'}`,
  ];
  for (const f of race.forks) {
    out.push(
      `  ✘ rotation forked under concurrency: ${f.chain}${f.shard ? ` [shard ${f.shard}]` : ''} at ${f.atS.toFixed(2)} s (${f.phase}) ` +
        `after ${f.afterRotations} rotation(s): ${f.exchanged} token(s) returned by the exchanges sent together, ${f.alive} still exchanged`,
    );
  }
  if (race.forksNotListed > 0) out.push(`  … and ${race.forksNotListed} more fork(s)`);
  return out;
}

/** One row per request kind the result has: answers, rate, latency, failed requests, statuses. */
export function endpointRows(result: LoadResult): { kind: string; cells: string[]; statuses: string }[] {
  return REQUEST_KINDS.flatMap((kind) => {
    const e = result.endpoints?.[kind];
    if (!e) return [];
    const m = metricsOf(endpointView(result, kind));
    const statuses = Object.entries(e.measured.byStatus)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k} ×${formatCount(v)}`)
      .join(', ');
    const failed = failuresOf(e.warmup) + failuresOf(e.measured);
    return [{ kind, cells: [...latencyRow(kind, m.latency, result.measuredS), formatCount(failed)], statuses: statuses || '-' }];
  });
}

/**
 * Keycloak's published sizing figure for refresh-token grants: one vCPU for each 120 per second
 * (keycloak.org, "Concepts for sizing CPU and memory resources"; docs/load.md cites it). Shown beside
 * a capacity per vCPU as a point of comparison, never as a verdict.
 */
export const KEYCLOAK_REFRESH_PER_VCPU = 120;

/**
 * The system under test as `--sut` named it; with `--sut-vcpus`, the capacity (or a fixed run's
 * throughput) per vCPU, beside Keycloak's sizing figure.
 */
export function sutLines(result: LoadResult): string[] {
  const sut = result.sut;
  if (!sut) return [];
  const out = [`system under test: ${sut.name}${sut.vcpus !== null ? `, ${sut.vcpus} vCPU(s)` : ''}`];
  if (sut.vcpus === null || !(sut.vcpus > 0)) return out;
  const c = result.capacity;
  const unstable = c?.stability?.verdict === 'unstable' ? ', unstable' : '';
  const figure = c ? c.maxRate : metricsOf(result).rps;
  if (figure === null || figure === undefined) return out;
  const what = c ? `capacity ${formatCount(figure)} req/s held${unstable}` : `throughput ${formatCount(figure)} req/s`;
  out.push(
    `per vCPU: ${formatCount(figure / sut.vcpus)} req/s (${what}, on ${sut.vcpus} vCPU(s)); Keycloak's sizing guide plans ` +
      `${KEYCLOAK_REFRESH_PER_VCPU} refresh-token grants/s per vCPU: a point of comparison, not a verdict`,
  );
  return out;
}

export function summaryText(result: LoadResult, files: { json: string; html: string } | undefined): string {
  const { view, label } = headlineView(result);
  const m = metricsOf(view);
  const s = result.settings;
  const out: string[] = [];
  const mode = result.capacity
    ? `capacity search of ${result.capacity.steps.length} step(s)`
    : s.rate !== null
      ? `fixed rate ${formatCount(s.rate)} req/s`
      : 'closed model';
  out.push(
    `\n${result.profile}: ${s.connections} connection(s), ${result.measuredS.toFixed(1)} s measured${s.warmupS > 0 ? ` after ${s.warmupS} s warmup` : ''}, ` +
      `${mode}, chains from ${s.chains}${s.shard ? `, shard ${s.shard.index}/${s.shard.count}` : ''}` +
      `${result.mergedFrom.length > 0 ? `, merged from ${result.mergedFrom.length} result(s)` : ''}\n`,
  );
  out.push(...sutLines(result));
  if (label) out.push(`figures ${label}`);
  const rows: string[][] = [];
  const all = latencyRow(m.corrected ? 'all (CO-corrected)' : 'all', m.latency, view.measuredS);
  rows.push(all);
  for (const cls of STATUS_CLASSES) {
    const enc = view.latency.byClass[cls];
    if (enc === undefined) continue;
    const h = decode(enc);
    rows.push(latencyRow(cls, summarise(h), view.measuredS));
    h.destroy();
  }
  out.push(table(['status', 'answers', 'req/s', 'p50', 'p90', 'p99', 'p99.9', 'max'], rows));
  const kinds = endpointRows(view);
  if (kinds.length > 0) {
    out.push('');
    out.push(
      table(
        ['request', 'answers', 'req/s', 'p50', 'p90', 'p99', 'p99.9', 'max', 'failed'],
        kinds.map((k) => k.cells),
      ),
    );
    for (const k of kinds) out.push(`${k.kind} statuses (measured): ${k.statuses}`);
    for (const kind of REQUEST_KINDS) {
      const k = metricsOf(endpointView(view, kind));
      if (k.raceProbes > 0 || k.forks > 0) out.push(`${kind} race probes: ${formatCount(k.raceProbes)}, forked ${formatCount(k.forks)}`);
    }
  }
  out.push(`latency: ${m.corrected ? 'from when each request fell due (coordinated-omission corrected)' : 'as answered'}, over the measured phase`);
  out.push('');
  out.push(...aboutTheFigures(result).map((l) => `${l}`));
  out.push(`correctness${result.capacity ? ' (every step)' : ''}: ${correctnessText(result)}`);
  const statuses = Object.entries(result.measured.byStatus).sort(([a], [b]) => a.localeCompare(b));
  if (statuses.length > 0) out.push(`statuses (measured): ${statuses.map(([k, v]) => `${k} ×${formatCount(v)}`).join(', ')}`);
  const codes = { ...result.warmup.errorCodes };
  for (const [k, v] of Object.entries(result.measured.errorCodes)) codes[k] = (codes[k] ?? 0) + v;
  if (Object.keys(codes).length > 0)
    out.push(
      `transport errors: ${Object.entries(codes)
        .map(([k, v]) => `${k} ×${v}`)
        .join(', ')}`,
    );
  const notes = { ...result.warmup.notes };
  for (const [k, v] of Object.entries(result.measured.notes)) notes[k] = (notes[k] ?? 0) + v;
  for (const [k, v] of Object.entries(notes)) out.push(`note: ${k} ×${formatCount(v)}`);
  for (const b of result.breaks) {
    const what = b.cause === 'rotation' ? 'rotation broke under load' : 'chain lost after its own request failed';
    out.push(
      `  ✘ ${what}: ${b.chain}${b.shard ? ` [shard ${b.shard}]` : ''} at ${b.atS.toFixed(2)} s (${b.phase}) ` +
        `after ${b.afterRotations} rotation(s): ${b.error}`,
    );
  }
  if (result.breaksNotListed > 0) out.push(`  … and ${result.breaksNotListed} more broken chain(s)`);
  if (result.race) out.push(...raceLines(result.race));
  if (result.thresholds.length > 0) {
    const max = result.capacity?.maxRate;
    const at = result.capacity ? ` at ${max !== null && max !== undefined ? `${formatCount(max)} req/s, the highest step that held` : 'the first step'}` : '';
    out.push(`thresholds${at}: ${result.thresholds.map((t) => `${t.ok ? '✔' : '✘'} ${t.expr} (${t.actual})`).join('   ')}`);
    for (const t of result.thresholds) {
      const note = samplesNote(t);
      if (note) out.push(`  ⚠ too few samples: ${note}: run longer or at a higher rate to trust it`);
    }
  }
  if (result.capacity) out.push(capacityLine(result.capacity).trimEnd());
  if (result.stoppedEarly) out.push(`⏹ ${result.stoppedEarly.reason}; the figures above cover the part that ran`);
  out.push('');
  const unstable = result.capacity?.stability?.verdict === 'unstable';
  if (result.verdict.exitCode === 0) out.push(unstable ? 'PASSED with --allow-unstable: the knee did not repeat, it is no figure to quote' : 'PASSED');
  else for (const r of result.verdict.reasons) out.push(`FAILED: ${r}`);
  if (files) out.push(`\nResult: ${files.json}\n        ${files.html}`);
  return `${out.join('\n')}\n`;
}

/**
 * Where the figures come from: the machine, the load generator's health (and a warning when it was
 * saturated), and a plain warning when the target was the built-in reference server.
 */
function aboutTheFigures(result: LoadResult): string[] {
  const out: string[] = [];
  if (result.machine) out.push(`machine: ${describeMachine(result.machine)}`);
  for (const f of result.mergedFrom) if (f.machine) out.push(`machine of ${f.shard ?? f.runId}: ${describeMachine(f.machine)}`);
  if (result.generator) {
    out.push(`load generator: ${describeHealth(result.generator)}`);
    if (result.generator.saturated) out.push(`⚠ ${saturationWarning(result.generator, result.target.builtIn, result.machine)}`);
  }
  if (result.target.builtIn) {
    out.push(
      "target: tack's built-in reference server, in this process, sharing its event loop with the load: these figures are no capacity of any real system",
    );
  }
  return out;
}
