/**
 * `--out prometheus=URL`: a short load pushes its figures to Debian's Prometheus through remote
 * write, and the query API gives back the run's own per-endpoint rate and p99; a Prometheus that is
 * down never breaks the run; no secret reaches a label.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { deserialize } from 'prometheus-remote-write';
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../../src/harness/redactor.js';
import type { EngineResult } from '../../../src/load/engine/engine.js';
import { Recorder } from '../../../src/load/engine/recorder.js';
import { PrometheusOutput } from '../../../src/load/outputs/prometheus.js';
import { endpointView, metricsOf } from '../../../src/load/results/metrics.js';
import type { RequestKind } from '../../../src/load/types.js';
import { inCi } from '../../helpers/browser.js';
import { PROMETHEUS_BIN, prometheusFound, startPrometheus } from '../../helpers/prometheus.js';
import { scaled } from '../../helpers/time-limits.js';
import { load } from '../helpers.js';

const FOUND = prometheusFound();
const RUN_LABELS = ['__name__', 'cause', 'endpoint', 'profile', 'quantile', 'reason', 'run_id', 'status', 'target'];

/** Within the histograms' precision (3 significant digits) and a float's. */
function near(actual: number, expected: number): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(Math.max(1e-9, Math.abs(expected) * 1e-3));
}

describe(`--out prometheus=URL against Debian's Prometheus${FOUND ? '' : ` (skipped: ${PROMETHEUS_BIN} not found; apt-get install prometheus)`}`, () => {
  it.skipIf(!FOUND && !inCi())(
    'leaves series whose per-endpoint rate and p99 are the run JSON own',
    async () => {
      if (!FOUND) throw new Error(`CI needs Prometheus at ${PROMETHEUS_BIN} (.ci/run installs it: apt-get install -y prometheus)`);
      const prometheus = await startPrometheus(scaled(30_000));
      try {
        const ran = await load('exchange-search', { duration: '3s', prometheus: prometheus.writeUrl, pushInterval: '1s' });
        expect(ran.exitCode).toBe(0);
        const pushed = ran.result.outputs?.prometheus;
        expect(pushed).toMatchObject({ host: new URL(prometheus.base).host, intervalS: 1, failed: 0 });
        // Pushed while the run lasted (about one a second), and once at its end.
        expect(pushed!.pushes).toBeGreaterThanOrEqual(3);
        const run = `run_id="${ran.result.runId}"`;

        const kinds = Object.keys(ran.result.endpoints ?? {}) as RequestKind[];
        expect(kinds.sort()).toEqual(['exchange', 'search']);
        for (const kind of kinds) {
          const own = metricsOf(endpointView(ran.result, kind));
          const [rate] = await prometheus.query(`tack_load_rate_per_second{${run},endpoint="${kind}"}`);
          near(rate!.value, own.rps);
          const [p99] = await prometheus.query(`tack_load_latency_seconds{${run},endpoint="${kind}",quantile="0.99"}`);
          near(p99!.value * 1e6, own.latency.p99);
          const [answers] = await prometheus.query(`sum(tack_load_responses_total{${run},endpoint="${kind}"})`);
          expect(answers!.value).toBe(own.responses);
        }
        const whole = metricsOf(ran.result);
        const [p99] = await prometheus.query(`tack_load_latency_seconds{${run},endpoint="all",quantile="0.99"}`);
        near(p99!.value * 1e6, whole.latency.p99);
        const [samples] = await prometheus.query(`count_over_time(tack_load_rate_per_second{${run},endpoint="all"}[5m])`);
        expect(samples!.value).toBe(pushed!.pushes);
        const [broken] = await prometheus.query(`sum(tack_load_broken_chains_total{${run}})`);
        expect(broken!.value).toBe(0);
        const [forks] = await prometheus.query(`sum(tack_load_forks_total{${run}})`);
        expect(forks!.value).toBe(0);
        const [busy] = await prometheus.query(`tack_load_generator_busy_ratio{${run}}`);
        expect(busy!.value).toBeGreaterThanOrEqual(0);
        expect(busy!.value).toBeLessThanOrEqual(1);

        // The run's labels: its id, the profile and the target's host, nothing else of the run.
        const series = await prometheus.series(`{${run}}`);
        expect(series.length).toBeGreaterThan(20);
        for (const labels of series) {
          for (const name of Object.keys(labels)) expect(RUN_LABELS).toContain(name);
          expect(labels).toMatchObject({ profile: 'exchange-search', target: new URL(ran.result.target.baseUrl).host });
        }
      } finally {
        await prometheus.stop();
      }
    },
    scaled(90_000),
  );
});

describe('--out prometheus=URL when Prometheus is down', () => {
  it(
    'warns once, runs to its end and counts the failed pushes in the result',
    async () => {
      const closed = await new Promise<number>((resolve) => {
        const s = createServer();
        s.listen(0, '127.0.0.1', () => {
          const port = (s.address() as { port: number }).port;
          s.close(() => resolve(port));
        });
      });
      const ran = await load('exchange', { duration: '2s', prometheus: `http://127.0.0.1:${closed}/api/v1/write`, pushInterval: '1s' });
      expect(ran.exitCode).toBe(0);
      expect(ran.result.verdict.reasons).toEqual([]);
      const pushed = ran.result.outputs!.prometheus!;
      expect(pushed.pushes).toBeGreaterThanOrEqual(2);
      expect(pushed.failed).toBe(pushed.pushes);
      expect(pushed.firstError).toBe('ECONNREFUSED');
      expect(ran.output.match(/metrics: a push to Prometheus/g)).toHaveLength(1);
      expect(ran.output).toContain(`Metrics: ${pushed.pushes} push(es) to Prometheus at 127.0.0.1:${closed}, ${pushed.failed} failed`);
    },
    scaled(60_000),
  );
});

/** An engine run that records a few answers: enough for every series. */
async function fakeRun(o: Parameters<PrometheusOutput['drive']>[0]): Promise<EngineResult> {
  const t0 = performance.now();
  const recorder = new Recorder({ startedAt: t0, warmupMs: 0, durationMs: 1000, fixedRate: false });
  o.onStart?.(recorder);
  recorder.response(200, 3.2, t0 + 10, undefined, 'exchange');
  recorder.outcome({ kind: 'ok' }, t0 + 10, { label: 'chain 1', rotations: 1 }, 200, 'exchange');
  recorder.response(400, 2.1, t0 + 20, undefined, 'exchange');
  recorder.outcome({ kind: 'broken', cause: 'rotation', error: 'invalid_grant' }, t0 + 20, { label: 'chain 2', rotations: 1 }, 400, 'exchange');
  return { recorder } as unknown as EngineResult;
}

describe('a Prometheus that never answers', () => {
  it('times the push out after the push interval and says so once', async () => {
    const server = createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const said: string[] = [];
    const output = new PrometheusOutput(
      { url: `http://127.0.0.1:${port}/api/v1/write`, intervalMs: 1000 },
      { runId: 'r', profile: 'p', targetUrl: 'http://t/' },
      undefined,
      (l) => said.push(l),
    );
    const started = performance.now();
    await output.drive({} as Parameters<PrometheusOutput['drive']>[0], fakeRun);
    expect(await output.close()).toMatchObject({ pushes: 1, failed: 1, firstError: 'timed out' });
    expect(performance.now() - started).toBeLessThan(scaled(5000));
    expect(said).toHaveLength(1);
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
});

/** A remote-write receiver that keeps every request it is sent, decoded. */
async function captureServer(): Promise<{ url: string; bodies: unknown[]; headers: IncomingMessage['headers'][]; close: () => Promise<void> }> {
  const snappy = createRequire(import.meta.url)('snappyjs') as { uncompress(b: Uint8Array): Uint8Array };
  const bodies: unknown[] = [];
  const headers: IncomingMessage['headers'][] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      headers.push(req.headers);
      deserialize(snappy.uncompress(new Uint8Array(Buffer.concat(chunks))) as unknown as ArrayBufferLike).then((decoded) => {
        bodies.push(JSON.parse(JSON.stringify(decoded)));
        res.writeHead(204).end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/api/v1/write`, bodies, headers, close: () => new Promise((r) => server.close(() => r())) };
}

describe('PrometheusOutput labels', () => {
  it('never pushes a token, a key or the credentials of a URL', async () => {
    const receiver = await captureServer();
    const token = 'tk_live_7f3a9c2e5b1d8f4a6c0e';
    const partnerSecret = 'ps_9b8c7d6e5f4a3b2c1d0e';
    const redactor = new Redactor();
    redactor.register('api-token', token);
    redactor.register('partner-secret', partnerSecret);
    const said: string[] = [];
    const output = new PrometheusOutput(
      { url: receiver.url.replace('http://', 'http://pusher:push-password@'), intervalMs: 1000 },
      // Contrived on purpose: secrets where labels come from.
      { runId: `run-${token}`, profile: `exchange-${partnerSecret}`, targetUrl: `https://alice:hunter22@api.example.test:8443/v1?api_key=${token}` },
      redactor,
      (line) => said.push(line),
    );
    await output.drive({} as Parameters<PrometheusOutput['drive']>[0], fakeRun);
    const report = await output.close();
    await receiver.close();
    expect(report).toMatchObject({ pushes: 1, failed: 0 });
    expect(said).toEqual([]);
    expect(receiver.bodies).toHaveLength(1);
    const text = JSON.stringify(receiver.bodies);
    for (const secret of [token, partnerSecret, 'hunter22', 'alice', 'push-password', 'api_key']) expect(text).not.toContain(secret);
    // The remote write's credentials went in a header, as basic auth.
    expect(receiver.headers[0]!['authorization']).toBe(`Basic ${Buffer.from('pusher:push-password').toString('base64')}`);
    const labels = (receiver.bodies[0] as { timeseries: { labels: { name: string; value: string }[] }[] }).timeseries.map((t) =>
      Object.fromEntries(t.labels.map((l) => [l.name, l.value])),
    );
    expect(labels[0]).toMatchObject({ target: 'api.example.test:8443' });
    expect(labels.find((l) => l['__name__'] === 'tack_load_broken_chains_total' && l['cause'] === 'rotation')).toBeDefined();
  });
});
