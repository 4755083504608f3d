/**
 * What `tack load` prints: a progress line once a second and, at the end, a summary table. Every
 * line is built from counts and chain labels (run-tagged test users), never from a token.
 */
import type { Progress } from './engine.js';
import { decode, summarise, type LatencySummary } from './histograms.js';
import { metricsOf } from './metrics.js';
import { STATUS_CLASSES, type LoadResult } from './types.js';
import { capacityLine } from './capacity.js';
import { describeMachine } from './machine.js';
import { formatCount, formatUs } from './units.js';

export function progressLine(p: Progress): string {
  const phase = p.phase === 'warmup' ? ' warmup' : '';
  return (
    `  ${String(p.elapsedS).padStart(4)}s${phase}  ${formatCount(p.perSecond).padStart(9)} req/s  errors ${formatCount(p.failures)}  ` +
    `broken chains ${p.broken}  p99 ${p.p99Us > 0 ? formatUs(p.p99Us) : '-'}`
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

export function summaryText(result: LoadResult, files: { json: string; html: string } | undefined): string {
  const m = metricsOf(result);
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
  const rows: string[][] = [];
  const all = latencyRow(m.corrected ? 'all (CO-corrected)' : 'all', m.latency, result.measuredS);
  rows.push(all);
  for (const cls of STATUS_CLASSES) {
    const enc = result.latency.byClass[cls];
    if (enc === undefined) continue;
    const h = decode(enc);
    rows.push(latencyRow(cls, summarise(h), result.measuredS));
    h.destroy();
  }
  out.push(table(['status', 'answers', 'req/s', 'p50', 'p90', 'p99', 'p99.9', 'max'], rows));
  out.push('');
  out.push(...aboutTheFigures(result).map((l) => `${l}`));
  out.push(
    `correctness: ${m.broken} broken chain(s), ${m.lost} lost, ${m.malformed} against the spec, ${m.non2xx} unexpected non-2xx, ` +
      `${m.transportErrors} transport error(s), ${m.timeouts} timeout(s); ${formatCount(m.rotations)} rotation(s)`,
  );
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
      `  ✘ ${what}: ${b.chain}${b.shard ? ` [shard ${b.shard}]` : ''} at ${b.atS.toFixed(2)} s (${b.phase}) after ${b.afterRotations} rotation(s): ${b.error}`,
    );
  }
  if (result.breaksNotListed > 0) out.push(`  … and ${result.breaksNotListed} more broken chain(s)`);
  if (result.thresholds.length > 0) {
    const max = result.capacity?.maxRate;
    const at = result.capacity ? ` at ${max !== null && max !== undefined ? `${formatCount(max)} req/s, the highest step that held` : 'the first step'}` : '';
    out.push(`thresholds${at}: ${result.thresholds.map((t) => `${t.ok ? '✔' : '✘'} ${t.expr} (${t.actual})`).join('   ')}`);
  }
  if (result.capacity) out.push(capacityLine(result.capacity.steps, result.capacity.maxRate).trimEnd());
  out.push('');
  if (result.verdict.exitCode === 0) out.push('PASSED');
  else for (const r of result.verdict.reasons) out.push(`FAILED: ${r}`);
  if (files) out.push(`\nResult: ${files.json}\n        ${files.html}`);
  return `${out.join('\n')}\n`;
}

/** Where the figures come from: the machine, and a plain warning when the target was the built-in reference server. */
export function aboutTheFigures(result: LoadResult): string[] {
  const out: string[] = [];
  if (result.machine) out.push(`machine: ${describeMachine(result.machine)}`);
  for (const f of result.mergedFrom) if (f.machine) out.push(`machine of ${f.shard ?? f.runId}: ${describeMachine(f.machine)}`);
  if (result.target.builtIn) {
    out.push(
      "target: tack's built-in reference server, in this process, sharing its event loop with the load: these figures are no capacity of any real system",
    );
  }
  return out;
}
