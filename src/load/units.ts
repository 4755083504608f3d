/**
 * Latencies as thresholds write them (`20ms`, `250us`) and durations and latencies as tack prints
 * them. Latencies are held in whole microseconds everywhere in `src/load/`. A duration option
 * (`--duration 30s`) is read by the option grammar, `parseDuration` in src/cli/options.ts.
 */
const LATENCY_UNITS_US: Record<string, number> = { us: 1, µs: 1, ms: 1000, s: 1_000_000 };

/** `20ms`, `0.001ms`, `250us`, `1s` → microseconds (may be fractional: `0.001ms` is 1 µs). A unit is required. */
export function parseLatencyUs(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(us|µs|ms|s)\s*$/.exec(text);
  if (!m) return undefined;
  return Number(m[1]) * LATENCY_UNITS_US[m[2]!]!;
}

/** Microseconds for people: `850µs`, `1.24ms`, `2.5s`. */
export function formatUs(us: number): string {
  if (!Number.isFinite(us)) return '-';
  if (us < 1000) return `${Math.round(us)}µs`;
  if (us < 1_000_000) return `${trim(us / 1000)}ms`;
  return `${trim(us / 1_000_000)}s`;
}

/** A round axis tick in microseconds without trailing zeros: `500µs`, `1ms`, `2.5ms`, `1.5s`. */
export function formatUsTick(us: number): string {
  if (us === 0) return '0';
  if (us < 1000) return `${Number(us.toPrecision(6))}µs`;
  if (us < 1_000_000) return `${Number((us / 1000).toPrecision(6))}ms`;
  return `${Number((us / 1_000_000).toPrecision(6))}s`;
}

export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : `${Number((ms / 1000).toFixed(2))}s`;
}

/** 12345.6 → `12 346` (thin groups, easy to read in a table). */
export function formatCount(n: number): string {
  return Math.round(n)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}

function trim(n: number): string {
  return n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2);
}
