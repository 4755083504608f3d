/**
 * Benchmark part (c): the least a hand-written load script does against a rotating token exchange,
 * on the most common Node load engine. autocannon, one chain per connection: each request sends the
 * connection's current token, each 200 answer is parsed and its refresh_token stored for the next
 * request. No histogram of its own, no check beyond that, no result file: what tack is compared with
 * (`npm run bench` prints tack's throughput relative to this).
 */
import autocannon from 'autocannon';

export interface PlainFigures {
  readonly rps: number;
  readonly answers: number;
  readonly rotations: number;
  /** Load generator (this process) CPU time per answer in the measured window, µs. */
  readonly clientCpuUs: number;
}

export async function plainAutocannon(options: { port: number; connections: number; warmupMs: number; durationMs: number }): Promise<PlainFigures> {
  const start = Date.now();
  const from = start + options.warmupMs;
  const until = from + options.durationMs;
  let answers = 0;
  let rotations = 0;
  let cpuFrom: NodeJS.CpuUsage | undefined;
  let cpuUntil: NodeJS.CpuUsage | undefined;
  const timers = [
    setTimeout(() => (cpuFrom = process.cpuUsage()), options.warmupMs),
    setTimeout(() => (cpuUntil = process.cpuUsage()), options.warmupMs + options.durationMs),
  ];
  let chain = 0;
  await new Promise<void>((resolve, reject) => {
    autocannon(
      {
        url: `http://127.0.0.1:${options.port}`,
        connections: options.connections,
        duration: (options.warmupMs + options.durationMs) / 1000,
        setupClient: (client) => {
          let token = `bench-api-token-${++chain}`;
          client.setRequests([
            {
              method: 'POST',
              path: '/realms/payroll/protocol/openid-connect/token',
              setupRequest: (req) => {
                req.headers = { host: `id.localhost:${options.port}`, 'content-type': 'application/x-www-form-urlencoded' };
                req.body = `grant_type=refresh_token&client_id=payroll-portal&refresh_token=${encodeURIComponent(token)}`;
                return req;
              },
              onResponse: (status, body) => {
                const now = Date.now();
                if (now >= from && now < until) answers++;
                if (status !== 200) return;
                const next = (JSON.parse(body) as { refresh_token?: string }).refresh_token;
                if (next && next !== token) {
                  token = next;
                  rotations++;
                }
              },
            },
          ]);
        },
      },
      (error) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve()),
    );
  });
  for (const t of timers) clearTimeout(t);
  const cpu = cpuFrom && cpuUntil ? cpuUntil.user - cpuFrom.user + cpuUntil.system - cpuFrom.system : 0;
  return { rps: answers / (options.durationMs / 1000), answers, rotations, clientCpuUs: answers > 0 ? cpu / answers : 0 };
}
