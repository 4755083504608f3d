/**
 * The Artillery script of `tack load export artillery PROFILE` (`<profile>.artillery.yml`): one
 * virtual user (VU) per chain, all started in the first second, each looping for the duration.
 *
 * - The loop has one named request per kind the profile sends (exchange, search, mint, refresh),
 *   each sent when the profile's conversation says it comes next; the processor (hooks.ts) builds
 *   it and judges its answer with the profile's own code. Artillery's metrics-by-endpoint plugin
 *   times each kind apart, so a latency threshold on one kind (`exchange.p99<20ms`) becomes a
 *   condition on that kind's metrics.
 * - The checks tack makes become Artillery `ensure` conditions: no broken chain, no answer against
 *   the spec, no failed setup, and (unless --no-fail-on-errors) no unexpected status and no failed
 *   VU; every --threshold becomes one condition on Artillery's metrics (latency in milliseconds).
 *
 * The script holds no target address and no secret: the processor reads the TACK_* variables at
 * run time, so the same files run against any target and on any runner.
 */
import { TackError } from '../../harness/errors.js';
import type { LoadProfile } from '../profile.js';
import { checkScope, parseThreshold, type ThresholdSpec } from '../results/thresholds.js';
import type { RequestKind } from '../types.js';
import { COUNTERS, PROCESSOR_FILE, sendsHook } from './hooks.js';

/** Artillery's latency summaries (`http.response_time.<key>`), by the percentile tack writes. */
const PERCENTILES: ReadonlyMap<number, string> = new Map([
  [50, 'p50'],
  [75, 'p75'],
  [90, 'p90'],
  [95, 'p95'],
  [99, 'p99'],
  [99.9, 'p999'],
  [100, 'max'],
]);

const FAILED_REQUESTS = `(${[COUNTERS.broken, COUNTERS.againstSpec, COUNTERS.unexpectedStatus, COUNTERS.transportErrors, COUNTERS.timeouts].join(' + ')})`;

export interface ArtilleryExport {
  readonly profile: LoadProfile;
  readonly connections: number;
  readonly durationMs: number;
  readonly thresholds: readonly string[];
  readonly failOnErrors: boolean;
  readonly timeoutMs: number;
  readonly version: string;
}

/** Artillery's metrics-by-endpoint plugin, with the request names as the endpoints' names. */
const BY_ENDPOINT = 'plugins.metrics-by-endpoint.response_time';

/** One tack threshold as an Artillery `ensure` expression, or a usage error when Artillery has no such metric. */
export function ensureExpression(spec: ThresholdSpec): string {
  const m = spec.metric;
  const ms = () => String(Number((spec.value / 1000).toPrecision(12)));
  let left: string;
  let right = String(spec.value);
  // Per request kind, Artillery times each named request (metrics-by-endpoint); it counts nothing of tack's per kind.
  const latency = spec.scope === undefined ? 'http.response_time' : `${BY_ENDPOINT}.${spec.scope}`;
  if (spec.scope !== undefined && m.kind !== 'percentile' && m.kind !== 'max' && m.kind !== 'mean') {
    throw new TackError('TACK_ERR_USAGE', `--threshold '${spec.expr}': on Artillery a threshold on one request kind can only be a latency (p99, max, mean)`);
  }
  switch (m.kind) {
    case 'percentile': {
      const key = PERCENTILES.get(m.q);
      if (key === undefined) {
        const known = 'p50, p75, p90, p95, p99, p99.9, p100 (max) and mean';
        throw new TackError('TACK_ERR_USAGE', `--threshold '${spec.expr}': Artillery reports no p${m.q}; it has ${known}`);
      }
      left = `${latency}.${key}`;
      right = ms();
      break;
    }
    case 'max':
    case 'mean':
      left = `${latency}.${m.kind}`;
      right = ms();
      break;
    case 'rps':
      left = 'http.request_rate';
      break;
    case 'error_rate':
      left = `${FAILED_REQUESTS} / http.requests * 100`;
      break;
    case 'count':
      left = {
        errors: FAILED_REQUESTS,
        timeouts: COUNTERS.timeouts,
        non2xx: COUNTERS.unexpectedStatus,
        malformed: COUNTERS.againstSpec,
        broken: COUNTERS.broken,
        requests: 'http.responses',
      }[m.name];
      break;
  }
  return `${left} ${spec.op} ${right}`;
}

const q = (s: string) => JSON.stringify(s);

/** The script, as YAML text (every string JSON-quoted, which YAML reads as written). */
export function artilleryScript(o: ArtilleryExport): string {
  const thresholds = (o.thresholds.length > 0 ? o.thresholds : o.profile.defaultThresholds).map(parseThreshold);
  for (const t of thresholds) {
    checkScope(t, o.profile);
    if (t.abort)
      throw new TackError('TACK_ERR_USAGE', `--threshold '${t.expr}': Artillery's ensure is judged at the end; :abort stops only tack load's own runs`);
  }
  const conditions: string[] = [`${COUNTERS.broken} == 0`, `${COUNTERS.againstSpec} == 0`, `${COUNTERS.setupFailed} == 0`];
  if (o.failOnErrors) conditions.push(`${COUNTERS.unexpectedStatus} == 0`, 'vusers.failed == 0');
  conditions.push(...thresholds.map(ensureExpression));
  const durationS = Math.max(1, Math.round(o.durationMs / 1000));
  return [
    `# Written by \`tack load export artillery ${o.profile.name}\` (tack ${o.version}). Same semantics as \`tack load ${o.profile.name}\`:`,
    '# one rotation chain per virtual user, the rotated token stored before it is used, every answer judged',
    '# as tack judges it (see tack-processor.cjs), broken chains counted and failing the run (ensure, below).',
    ...(o.profile.kinds.includes('exchange')
      ? [
          '# It does NOT probe races: no virtual user sends its token twice at the same moment, so a server that forks',
          `# a chain under concurrent exchanges passes here. \`tack load ${o.profile.name}\` probes them (docs/load.md, "Race probe").`,
        ]
      : []),
    '#',
    '# No address and no secret is written here: the processor reads them at run time from TACK_BASE_URL,',
    '# TACK_IDENTITY_URL, TACK_HOOK_URL / TACK_HOOK_TOKEN (chains of the exchange profiles),',
    '# TACK_PARTNER_CLIENT_ID / TACK_PARTNER_SECRET / TACK_PARTNER_HEADERS (partner profiles), TACK_CLIENT_ID,',
    '# TACK_ACCESS_TOLERANCE_S, TACK_INSECURE_TLS. Only loopback targets are loaded unless TACK_ALLOW_REMOTE=1.',
    '#',
    `#   ARTILLERY_DISABLE_TELEMETRY=true npx --no-install --prefix <tack>/load/artillery artillery run ${o.profile.name}.artillery.yml`,
    "#   (unchanged on Artillery's runners: run-fargate / run-lambda --count N; each runner starts every VU below)",
    'config:',
    `  target: ${q('http://tack-sets-every-url-at-run-time.invalid')}`,
    '  phases:',
    `    - name: ${q(`one virtual user per chain, ${durationS} s each`)}`,
    '      duration: 1',
    `      arrivalCount: ${o.connections}`,
    `  processor: ${q(`./${PROCESSOR_FILE}`)}`,
    '  http:',
    `    timeout: ${Math.max(1, Math.ceil(o.timeoutMs / 1000))}`,
    '  variables:',
    `    tackProfile: ${q(o.profile.name)}`,
    `    tackDurationS: ${durationS}`,
    '  plugins:',
    '    ensure: {}',
    '    metrics-by-endpoint:',
    '      useOnlyRequestNames: true',
    '  ensure:',
    '    conditions:',
    ...conditions.map((c) => `      - expression: ${q(c)}`),
    'scenarios:',
    `  - name: ${q(`tack ${o.profile.name}: ${o.profile.title}`)}`,
    '    beforeScenario: tackSetUp',
    '    onError: tackRequestFailed',
    "    # each request of the loop is built by the processor (tackRequest) when the profile's conversation sends one of its kind next",
    '    flow:',
    '      - loop:',
    ...o.profile.kinds.flatMap(step),
    '        whileTrue: tackChainGoesOn',
    '',
  ].join('\n');
}

/** The method Artillery's step is written with (the processor sets the one the conversation sends). */
const METHOD: Readonly<Record<RequestKind, 'get' | 'post'>> = { exchange: 'post', search: 'get', mint: 'post', refresh: 'post' };

/** One request of the loop: sent when the conversation's next request is of this kind; built and judged by the processor. */
function step(kind: RequestKind): string[] {
  return [
    `          - ${METHOD[kind]}:`,
    `              url: ${q('/')}`,
    `              name: ${q(kind)}`,
    `              ifTrue: ${sendsHook(kind)}`,
    '              beforeRequest: tackRequest',
    '              afterResponse: tackAnswer',
  ];
}
