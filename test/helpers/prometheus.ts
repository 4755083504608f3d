/**
 * Debian's Prometheus (`apt-get install prometheus`), started for a test on loopback with its
 * remote-write receiver on, its data in a temporary folder; `stop()` kills it and removes the
 * folder. Without it the tests that need it are skipped saying so, except in CI, where `.ci/run`
 * installs it and its absence fails them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PROMETHEUS_BIN = process.env['TACK_PROMETHEUS'] ?? '/usr/bin/prometheus';

export function prometheusFound(): boolean {
  return existsSync(PROMETHEUS_BIN);
}

export interface Prometheus {
  /** `http://127.0.0.1:<port>` */
  readonly base: string;
  readonly writeUrl: string;
  /** An instant query's vector: each series' labels and value. */
  query(promql: string): Promise<{ metric: Record<string, string>; value: number }[]>;
  /** Every series whose labels match the selector. */
  series(selector: string): Promise<Record<string, string>[]>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

async function api<T>(base: string, path: string): Promise<T> {
  const response = await fetch(`${base}${path}`);
  const body = (await response.json()) as { status: string; data: T; error?: string };
  if (body.status !== 'success') throw new Error(`Prometheus ${path}: ${body.error ?? response.status}`);
  return body.data;
}

/** Starts Prometheus and waits until it is ready (`/-/ready`), at most `readyMs`. */
export async function startPrometheus(readyMs = 30_000): Promise<Prometheus> {
  const dir = mkdtempSync(join(tmpdir(), 'tack-prometheus-'));
  const config = join(dir, 'prometheus.yml');
  writeFileSync(config, 'global:\n  scrape_interval: 1m\n');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let log = '';
  const child: ChildProcess = spawn(
    PROMETHEUS_BIN,
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--web.enable-remote-write-receiver',
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  child.stderr?.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const until = Date.now() + readyMs;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`Prometheus exited (${child.exitCode}): ${log}`);
      const ready = await fetch(`${base}/-/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) break;
      if (Date.now() > until) throw new Error(`Prometheus not ready within ${readyMs} ms: ${log}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    base,
    writeUrl: `${base}/api/v1/write`,
    query: async (promql) => {
      const data = await api<{ result: { metric: Record<string, string>; value: [number, string] }[] }>(
        base,
        `/api/v1/query?query=${encodeURIComponent(promql)}`,
      );
      return data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
    },
    series: (selector) => api<Record<string, string>[]>(base, `/api/v1/series?match[]=${encodeURIComponent(selector)}`),
    stop,
  };
}
