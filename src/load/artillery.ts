/**
 * `tack load export artillery PROFILE`: an Artillery script and processor that keep tack's load
 * semantics, for runs beyond one machine on Artillery's own runners (`artillery run`, and unchanged
 * `artillery run-fargate` / `run-lambda --count N`).
 *
 * - `<profile>.artillery.yml`: one virtual user (VU) per chain, all started in the first second, each
 *   looping for the duration; the checks tack makes become Artillery `ensure` conditions: no broken
 *   chain, no answer against the spec, no failed setup, and (unless --no-fail-on-errors) no
 *   unexpected status and no failed VU; every --threshold becomes one condition on Artillery's
 *   metrics (latency in milliseconds). Each request is named for its kind (exchange, search, mint,
 *   refresh) and Artillery's metrics-by-endpoint plugin times each kind apart, so a latency
 *   threshold on one kind (`exchange.p99<20ms`) becomes a condition on that kind's metrics.
 * - `tack-processor.cjs`: the hooks the script names (src/load/artillery-processor.cjs): the
 *   VU's own chain at its start, the rotated token stored before the next request, every answer
 *   judged as tack judges it, counters `tack.*`.
 *
 * Neither file holds a target address or a secret: the processor reads the TACK_* variables at run
 * time, so the same files run against any target and on any runner.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TackError } from '../harness/errors.js';
import type { LoadProfile } from './profile.js';
import { checkScope, parseThreshold, type ThresholdSpec } from './thresholds.js';

export const PROCESSOR_FILE = 'tack-processor.cjs';
const PROCESSOR_SOURCE = fileURLToPath(new URL('./artillery-processor.cjs', import.meta.url));

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

const FAILED_REQUESTS = '(tack.chains_broken + tack.against_spec + tack.unexpected_status + tack.transport_errors + tack.timeouts)';

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
        timeouts: 'tack.timeouts',
        non2xx: 'tack.unexpected_status',
        malformed: 'tack.against_spec',
        broken: 'tack.chains_broken',
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
  for (const t of thresholds) checkScope(t, o.profile);
  const conditions: string[] = ['tack.chains_broken == 0', 'tack.against_spec == 0', 'tack.setup_failed == 0'];
  if (o.failOnErrors) conditions.push('tack.unexpected_status == 0', 'vusers.failed == 0');
  conditions.push(...thresholds.map(ensureExpression));
  const durationS = Math.max(1, Math.round(o.durationMs / 1000));
  const flow = FLOWS[o.profile.name];
  if (!flow) throw new TackError('TACK_ERR_USAGE', `tack load export artillery: no Artillery flow for profile ${o.profile.name}`);
  return [
    `# Written by \`tack load export artillery ${o.profile.name}\` (tack ${o.version}). Same semantics as \`tack load ${o.profile.name}\`:`,
    '# one rotation chain per virtual user, the rotated token stored before it is used, every answer judged',
    '# as tack judges it (see tack-processor.cjs), broken chains counted and failing the run (ensure, below).',
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
    '    flow:',
    '      - loop:',
    ...flow,
    '        whileTrue: tackChainGoesOn',
    '',
  ].join('\n');
}

const FLOWS: Record<string, readonly string[]> = {
  exchange: [
    '          - post:',
    `              url: ${q('/protocol/openid-connect/token')}`,
    `              name: ${q('exchange')}`,
    '              beforeRequest: tackExchangeRequest',
    '              afterResponse: tackExchangeAnswer',
  ],
  'exchange-search': [
    '          - post:',
    `              url: ${q('/protocol/openid-connect/token')}`,
    `              name: ${q('exchange')}`,
    '              ifTrue: tackNeedsExchange',
    '              beforeRequest: tackExchangeRequest',
    '              afterResponse: tackExchangeAnswer',
    '          - get:',
    `              url: ${q('/api/businesses/search')}`,
    `              name: ${q('search')}`,
    '              ifTrue: tackHasAccess',
    '              beforeRequest: tackSearchRequest',
    '              afterResponse: tackSearchAnswer',
  ],
  'partner-mint': [
    '          - post:',
    `              url: ${q('/api/admin/authentication/token')}`,
    `              name: ${q('mint')}`,
    '              beforeRequest: tackPartnerRequest',
    '              afterResponse: tackPartnerAnswer',
  ],
  'partner-refresh': [
    '          - post:',
    `              url: ${q('/api/admin/authentication/refresh')}`,
    `              name: ${q('refresh')}`,
    '              beforeRequest: tackPartnerRequest',
    '              afterResponse: tackPartnerAnswer',
  ],
};

/** Writes the script and the processor into `dir`; returns their paths. */
export function writeArtilleryExport(o: ArtilleryExport, dir: string): { script: string; processor: string } {
  const script = artilleryScript(o);
  mkdirSync(dir, { recursive: true });
  const scriptPath = join(dir, `${o.profile.name}.artillery.yml`);
  const processorPath = join(dir, PROCESSOR_FILE);
  writeFileSync(scriptPath, script);
  copyFileSync(PROCESSOR_SOURCE, processorPath);
  return { script: scriptPath, processor: processorPath };
}
