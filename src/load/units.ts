/**
 * Durations and latencies as people type them (`30s`, `500ms`, `250us`, `1.5m`) and as tack prints
 * them. Latencies are held in whole microseconds everywhere in `src/load/`.
 */
import { TackError } from '../harness/errors.js';

const DURATION_UNITS_MS: Record<string, number> = { us: 0.001, µs: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const LATENCY_UNITS_US: Record<string, number> = { us: 1, µs: 1, ms: 1000, s: 1_000_000 };

/** `30s`, `1.5m`, `500ms` → milliseconds. A bare number is seconds (the common case for `--duration 30`). */
export function parseDurationMs(text: string, flag: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(us|µs|ms|s|m|h)?\s*$/.exec(text);
  if (!m) throw new TackError('TACK_ERR_USAGE', `${flag} takes a duration such as 10s, 500ms or 2m, got "${text}"`);
  return Math.round(Number(m[1]) * DURATION_UNITS_MS[m[2] ?? 's']!);
}

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
