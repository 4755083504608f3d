/**
 * Thresholds: `p99<20ms`, `errors==0`, `rps>=5000`, `error_rate<1%`. A pure parser (so a typo is a
 * usage error before any load is sent) and an evaluator over a result's metrics.
 *
 * Metrics:
 * - latency (unit required: us, µs, ms, s): `p50`, `p90`, `p99`, `p99.9` (also `p999`), `p99.99`
 *   (also `p9999`), `p100` (the maximum, as `max`), any `pNN.N`, `mean`
 * - `rps` (answers per second of the measured phase)
 * - counts over the whole run: `errors` (every failed request: transport errors, timeouts,
 *   unexpected non-2xx, answers against the spec, broken and lost chains), `timeouts`, `non2xx`, `malformed`,
 *   `broken` (broken + lost chains), `requests` (answers in the measured phase)
 * - `error_rate` in percent (`error_rate<0.1%`)
 *
 * Any metric may name a request kind first (`exchange.p99<20ms`, `search.errors==0`,
 * `mint.rps>=100`): it is then judged on that kind's answers alone.
 *
 * Stop early (k6's `abortOnFail`): `p99<200ms:abort` ends the run at the threshold's first
 * sustained breach; `:abort=10s` gives the grace period after the start of the measured phase
 * (default `ABORT_DEFAULT_GRACE_MS`); k6's own words are read too (`:abortOnFail`,
 * `:delayAbortEval=10s`). Judged by ./early-stop.ts.
 *
 * The sample rule: a latency figure needs enough answers to mean anything. A pNN needs at least
 * 10 / (1 − NN/100) answers, i.e. ten answers above it (p50 20, p90 100, p99 1 000, p99.9 10 000),
 * the mean 20, the maximum one. A threshold judged on fewer carries `samples` and says so.
 */
import { TackError } from '../../harness/errors.js';
import { endpointView, latencyHistogram, metricsOf, type Metrics } from './metrics.js';
import { REQUEST_KINDS, type LoadResult, type RequestKind, type Threshold } from '../types.js';
import { formatCount, formatUs, parseLatencyUs } from '../units.js';

type Op = '<' | '<=' | '>' | '>=' | '==' | '!=';

type Metric =
  | { readonly kind: 'percentile'; readonly q: number }
  | { readonly kind: 'max' | 'mean' }
  | { readonly kind: 'rps' | 'error_rate' }
  | { readonly kind: 'count'; readonly name: CountName };

type CountName = 'errors' | 'timeouts' | 'non2xx' | 'malformed' | 'broken' | 'requests';
const COUNT_NAMES: readonly CountName[] = ['errors', 'timeouts', 'non2xx', 'malformed', 'broken', 'requests'];

/** With no `=GRACE`, an abort threshold is first judged this long after the measured phase began. */
const ABORT_DEFAULT_GRACE_MS = 5000;

export interface ThresholdSpec {
  /** As given, modifiers included (`p99<200ms:abort=10s`). */
  readonly expr: string;
  /** `:abort`: the run stops at the first sustained breach, judged from `graceMs` after the measured phase began. */
  readonly abort?: { readonly graceMs: number } | undefined;
  /** The request kind it is about (`exchange.p99<20ms`); undefined for every answer. */
  readonly scope?: RequestKind | undefined;
  readonly metric: Metric;
  readonly op: Op;
  /** µs for latency metrics, percent for error_rate, plain number otherwise. */
  readonly value: number;
}

const SHAPE = /^\s*([a-z_][a-z0-9_.]*)\s*(<=|>=|==|!=|<|>)\s*(.+?)\s*$/i;

function usage(expr: string, why: string): TackError {
  return new TackError('TACK_ERR_USAGE', `--threshold '${expr}': ${why} (e.g. 'p99<20ms', 'errors==0', 'rps>=5000', 'error_rate<1%')`);
}

/** `exchange.p99` → the kind and `p99`; a name without a known kind first is the whole name. */
function splitScope(name: string): { scope: RequestKind | undefined; metric: string } {
  const dot = name.indexOf('.');
  const head = dot > 0 ? name.slice(0, dot).toLowerCase() : '';
  if ((REQUEST_KINDS as readonly string[]).includes(head)) return { scope: head as RequestKind, metric: name.slice(dot + 1) };
  return { scope: undefined, metric: name };
}

function parseMetric(name: string, expr: string): Metric {
  const lower = name.toLowerCase();
  if (lower === 'max' || lower === 'mean') return { kind: lower };
  if (lower === 'rps' || lower === 'error_rate') return { kind: lower };
  if ((COUNT_NAMES as readonly string[]).includes(lower)) return { kind: 'count', name: lower as CountName };
  const p = /^p(\d+(?:\.\d+)?)$/.exec(lower);
  if (p) {
    const q = percentileOf(p[1]!);
    if (q === undefined) throw usage(expr, `"${name}" is not a percentile: write p50, p90, p99, p99.9, p99.99, p100 (or max); a dot marks decimals (p99.5)`);
    return { kind: 'percentile', q };
  }
  throw usage(
    expr,
    `unknown metric "${name}"; known: p50, p90, p99, p99.9, p99.99, p100, max, mean, rps, error_rate, ${COUNT_NAMES.join(', ')}, ` +
      `each alone or after a request kind (${REQUEST_KINDS.join(', ')}), e.g. exchange.p99`,
  );
}

/**
 * The percentile a `pNN` name means, or undefined. With a dot it is read as written (p99.9, p99.99,
 * p100.0); without one: one or two digits are whole (p5, p50, p99), `100` is the maximum, and the
 * compact forms that start with 99 put the decimals after it (p999 = 99.9, p9999 = 99.99). Any
 * other run of three or more digits (p950: 95.0 or 950?) is refused rather than guessed.
 */
function percentileOf(digits: string): number | undefined {
  let q: number;
  if (digits.includes('.') || digits.length <= 2 || digits === '100') q = Number(digits);
  else if (/^99\d+$/.test(digits)) q = Number(`99.${digits.slice(2)}`);
  else return undefined;
  return q > 0 && q <= 100 ? q : undefined;
}

/**
 * `abort`, `abort=10s`, `abortOnFail`, `delayAbortEval=10s` after the expression, each after a colon;
 * a grace without `abort` is refused (it would stop nothing).
 */
function parseModifiers(expr: string, modifiers: readonly string[]): ThresholdSpec['abort'] {
  let abort = false;
  let graceMs: number | undefined;
  for (const raw of modifiers) {
    const [word, value] = raw.trim().split('=', 2) as [string, string | undefined];
    const w = word.trim().toLowerCase();
    if (w === 'abort' || w === 'abortonfail') abort = true;
    else if (w !== 'delayaborteval')
      throw usage(expr, `unknown modifier ":${raw.trim()}"; known: ":abort", ":abort=10s" (k6: ":abortOnFail", ":delayAbortEval=10s")`);
    if (value === undefined) {
      if (w === 'delayaborteval') throw usage(expr, ':delayAbortEval takes a duration, e.g. :delayAbortEval=10s');
      continue;
    }
    const ms = parseLatencyUs(value.trim());
    if (ms === undefined) throw usage(expr, `the grace period of :${word.trim()} takes a duration with its unit, e.g. 10s or 500ms (got "${value}")`);
    graceMs = ms / 1000;
  }
  if (!abort && graceMs !== undefined) throw usage(expr, ':delayAbortEval needs :abortOnFail (or write :abort=10s)');
  return abort ? { graceMs: graceMs ?? ABORT_DEFAULT_GRACE_MS } : undefined;
}

export function parseThreshold(expr: string): ThresholdSpec {
  const [body, ...modifiers] = expr.split(':');
  const abort = parseModifiers(expr, modifiers);
  const m = SHAPE.exec(body!);
  if (!m) throw usage(expr, 'not of the form METRIC OP VALUE');
  const { scope, metric: name } = splitScope(m[1]!);
  const metric = parseMetric(name, expr);
  const op = m[2] as Op;
  const raw = m[3]!;
  let value: number | undefined;
  if (metric.kind === 'percentile' || metric.kind === 'max' || metric.kind === 'mean') {
    value = parseLatencyUs(raw);
    if (value === undefined) throw usage(expr, `a latency needs a unit: us, µs, ms or s (got "${raw}")`);
  } else if (metric.kind === 'error_rate') {
    const pct = /^(\d+(?:\.\d+)?)\s*%$/.exec(raw);
    if (!pct) throw usage(expr, `error_rate is a percentage such as 1% (got "${raw}")`);
    value = Number(pct[1]);
  } else {
    if (!/^\d+(?:\.\d+)?$/.test(raw)) throw usage(expr, `${m[1]} takes a plain number (got "${raw}")`);
    value = Number(raw);
  }
  return { expr: expr.trim(), ...(scope !== undefined ? { scope } : {}), metric, op, value, ...(abort ? { abort } : {}) };
}

/** Refuses (exit 2) a threshold on a request kind the profile never sends: it could never be judged. */
export function checkScope(spec: ThresholdSpec, profile: { readonly name: string; readonly kinds: readonly RequestKind[] }): void {
  if (spec.scope === undefined || profile.kinds.includes(spec.scope)) return;
  throw new TackError(
    'TACK_ERR_USAGE',
    `--threshold '${spec.expr}': ${profile.name} sends no ${spec.scope} request (it sends ${profile.kinds.join(' and ')}); ` +
      `name one of those, e.g. '${profile.kinds[0]}.p99<20ms', or drop the prefix`,
  );
}

const isLatency = (m: Metric) => m.kind === 'percentile' || m.kind === 'max' || m.kind === 'mean';

/** The answers a threshold's figure needs (the sample rule of the file comment); 0 when it is no latency figure. */
export function samplesNeeded(metric: Metric): number {
  if (metric.kind === 'percentile') return metric.q >= 100 ? 1 : Math.ceil(10 / (1 - metric.q / 100) - 1e-6);
  if (metric.kind === 'mean') return 20;
  if (metric.kind === 'max') return 1;
  return 0;
}

function compare(actual: number, op: Op, limit: number): boolean {
  switch (op) {
    case '<':
      return actual < limit;
    case '<=':
      return actual <= limit;
    case '>':
      return actual > limit;
    case '>=':
      return actual >= limit;
    case '==':
      return actual === limit;
    case '!=':
      return actual !== limit;
  }
}

function actualOf(spec: ThresholdSpec, m: Metrics, percentile: (q: number) => number): { value: number; text: string } {
  const metric = spec.metric;
  switch (metric.kind) {
    case 'percentile': {
      // p100 is the maximum itself (an HdrHistogram's 100th percentile is its bucket's upper edge).
      const us = metric.q === 100 ? m.latency.max : percentile(metric.q);
      return { value: us, text: formatUs(us) };
    }
    case 'max':
      return { value: m.latency.max, text: formatUs(m.latency.max) };
    case 'mean':
      return { value: m.latency.mean, text: formatUs(m.latency.mean) };
    case 'rps':
      return { value: m.rps, text: `${Math.round(m.rps)} req/s` };
    case 'error_rate':
      return { value: m.errorRatePct, text: `${m.errorRatePct.toFixed(3)}%` };
    case 'count': {
      const value = metric.name === 'requests' ? m.responses : metric.name === 'broken' ? m.broken + m.lost : m[metric.name];
      return { value, text: String(value) };
    }
  }
}

/**
 * Judges each threshold against a result (or, for `kind.metric`, against that kind's share of it).
 * A latency threshold with no answers at all fails; one judged on fewer answers than the sample
 * rule asks for carries `samples`.
 */
export function evaluateThresholds(result: LoadResult, specs: readonly { spec: ThresholdSpec; source: Threshold['source'] }[]): Threshold[] {
  if (specs.length === 0) return [];
  const views = new Map<RequestKind | undefined, { metrics: Metrics; h: ReturnType<typeof latencyHistogram>['h'] }>();
  const viewOf = (scope: RequestKind | undefined) => {
    let v = views.get(scope);
    if (!v) {
      const r = scope === undefined ? result : endpointView(result, scope);
      v = { metrics: metricsOf(r), h: latencyHistogram(r).h };
      views.set(scope, v);
    }
    return v;
  };
  try {
    return specs.map(({ spec, source }) => {
      const { metrics, h } = viewOf(spec.scope);
      const needed = samplesNeeded(spec.metric);
      const answers = h.totalCount;
      const samples = isLatency(spec.metric) && answers < needed ? { samples: { answers, needed } } : {};
      if (isLatency(spec.metric) && answers === 0) return { expr: spec.expr, ok: false, actual: 'no answers measured', source, ...samples };
      const actual = actualOf(spec, metrics, (q) => h.getValueAtPercentile(q));
      return { expr: spec.expr, ok: compare(actual.value, spec.op, spec.value), actual: actual.text, source, ...samples };
    });
  } finally {
    for (const v of views.values()) v.h.destroy();
  }
}

/** `p99<20ms judged on 412 answers (a p99 needs 1 000)`, for a threshold with too few samples. */
export function samplesNote(t: Threshold): string | undefined {
  if (!t.samples) return undefined;
  return `${t.expr} judged on ${formatCount(t.samples.answers)} answer(s), fewer than its ${formatCount(t.samples.needed)} (the sample rule)`;
}
