/**
 * `npm run bench`: how close the reference server's exchange path comes to the ceiling of Node on
 * this machine, measured in one run on loopback with the same load engine, connections and
 * duration:
 *
 *   (a) a bare node:http endpoint answering a fixed JSON body to a form POST (bench/bare-server.ts);
 *   (b) the reference server's token exchange through `tack load exchange` (rotating chains).
 *
 * Both servers run in a child process of their own; the load engine runs here. BENCH_ROUNDS rounds
 * of (a) then (b); the best round of each counts (other load on the machine only slows a round
 * down). Then a longer exchange run against the same reference process, and its heap after a full
 * GC before and after, to show the token store stays bounded. The last line is the ratio b/a.
 *
 * Settings: BENCH_CONNECTIONS (10), BENCH_DURATION (5s), BENCH_WARMUP (2s), BENCH_ROUNDS (3),
 * BENCH_LONG (30s).
 * Not a test: it prints figures and exits 0 unless a run was incorrect.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { LoadChain } from '../scenarios/load/chains.js';
import { ExchangeConversation, exchangeProfile } from '../scenarios/load/exchange.js';
import { runEngine } from '../src/load/engine.js';
import { sumEncoded, summarise } from '../src/load/histograms.js';
import { runLoad } from '../src/load/run.js';
import { formatCount, formatUs, parseDurationMs } from '../src/load/units.js';
import { TACK_VERSION } from '../src/cli/options.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const DURATION_MS = parseDurationMs(process.env.BENCH_DURATION ?? '5s', 'BENCH_DURATION');
const WARMUP_MS = parseDurationMs(process.env.BENCH_WARMUP ?? '2s', 'BENCH_WARMUP');
const LONG_MS = parseDurationMs(process.env.BENCH_LONG ?? '30s', 'BENCH_LONG');
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));

interface Heap {
  heapUsed: number;
  heapTotal: number;
  rss: number;
  gc: boolean;
}

function child(file: string): ChildProcess {
  return fork(fileURLToPath(new URL(file, import.meta.url)), [], { execArgv: ['--import', 'tsx', '--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

function nextMessage<T>(proc: ChildProcess, pick: (m: unknown) => T | undefined): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: unknown) => {
      const v = pick(m);
      if (v === undefined) return;
      proc.off('message', onMessage);
      proc.off('exit', onExit);
      resolve(v);
    };
    const onExit = (code: number | null) => reject(new Error(`benchmark server exited (${code})`));
    proc.on('message', onMessage);
    proc.once('exit', onExit);
  });
}

async function stop(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.disconnect();
  const timer = setTimeout(() => proc.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

interface Figures {
  rps: number;
  p99: number;
  failures: number;
}

async function bare(port: number): Promise<Figures> {
  const endpoint = { connectUrl: `http://127.0.0.1:${port}`, host: `id.localhost:${port}`, pathPrefix: '/realms/payroll', servername: undefined, loopback: true };
  const { recorder } = await runEngine({
    connectUrl: endpoint.connectUrl,
    connections: CONNECTIONS,
    warmupMs: WARMUP_MS,
    durationMs: DURATION_MS,
    rate: undefined,
    timeoutMs: 10_000,
    // The bare server returns the same refresh token every time: the chain just keeps it.
    conversation: (i, tally) => new ExchangeConversation(new LoadChain(`chain ${i + 1}`, `bench-api-token-${i}`, undefined), endpoint, 'payroll-portal', tally),
  });
  const m = recorder.measured;
  const figures = { rps: m.responses / recorder.measuredSeconds(), p99: summarise(recorder.all).p99, failures: m.non2xx + m.malformed + m.errors + m.timeouts + m.broken };
  recorder.destroy();
  return figures;
}

async function reference(env: Record<string, string>, durationMs: number): Promise<Figures & { rotations: number; reasons: string[] }> {
  const { result, exitCode } = await runLoad(
    {
      profile: exchangeProfile,
      env,
      connections: CONNECTIONS,
      durationMs,
      warmupMs: WARMUP_MS,
      thresholds: ['errors==0'],
      tolerancePct: 20,
      reportsDir: 'reports/bench',
      allowRemote: false,
      faults: [],
      failOnErrors: true,
      quiet: true,
      version: TACK_VERSION,
    },
    { write: () => undefined, progress: () => undefined },
  );
  const m = result.measured;
  const h = sumEncoded(Object.values(result.latency.byClass));
  const all = summarise(h);
  h.destroy();
  return { rps: m.responses / result.measuredS, p99: all.p99, failures: exitCode === 0 ? 0 : 1, rotations: result.warmup.rotations + m.rotations, reasons: result.verdict.reasons };
}

async function heapOf(proc: ChildProcess): Promise<Heap> {
  const reply = nextMessage(proc, (m) => (m as { heap?: Heap })?.heap);
  proc.send('heap');
  return reply;
}

const cores = cpus();
const write = (s: string) => process.stdout.write(s + '\n');
const line = (name: string, f: Figures) => `${name} ${formatCount(f.rps).padStart(8)} req/s   p99 ${formatUs(f.p99)}`;
write(`tack bench: ${cores.length} core(s) ${cores[0]?.model.trim() ?? ''}, node ${process.version}`);
write(
  `${CONNECTIONS} connections, ${ROUNDS} round(s) of (a) then (b), each ${DURATION_MS / 1000} s measured after ${WARMUP_MS / 1000} s warmup; ` +
    `each server in its own process, the load engine in this one; the best round of each counts (other load on the machine only ever slows a round down)\n`,
);

const bareProc = child('./bare-server.ts');
const refProc = child('./reference-server.ts');
let failed = false;
try {
  const port = await nextMessage(bareProc, (m) => (m as { port?: number })?.port);
  const fullEnv = await nextMessage(refProc, (m) => (m as { env?: Record<string, string> })?.env);
  // Hook mode: one fresh user and API token per connection. TACK_USER_EMAIL is for hookless mode.
  const env = Object.fromEntries(Object.entries(fullEnv).filter(([k]) => k !== 'TACK_USER_EMAIL'));
  const before = await heapOf(refProc);
  const as: Figures[] = [];
  const bs: Figures[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const a = await bare(port);
    as.push(a);
    write(line(`round ${round} (a) bare node:http, fixed JSON to a form POST: `, a) + (a.failures ? `   (${a.failures} failures!)` : ''));
    const b = await reference(env, DURATION_MS);
    bs.push(b);
    write(line(`round ${round} (b) reference exchange via tack load exchange:`, b) + (b.failures ? `   (FAILED: ${b.reasons.join('; ')})` : ''));
    failed ||= a.failures > 0 || b.failures > 0;
  }
  const afterRounds = await heapOf(refProc);
  const long = await reference(env, LONG_MS);
  failed ||= long.failures > 0;
  const afterLong = await heapOf(refProc);
  const a = as.reduce((x, y) => (y.rps > x.rps ? y : x));
  const b = bs.reduce((x, y) => (y.rps > x.rps ? y : x));
  write('');
  write(
    `reference heap after GC: ${mb(before.heapUsed)} at start, ${mb(afterRounds.heapUsed)} after the rounds, ${mb(afterLong.heapUsed)} after a further ${LONG_MS / 1000} s run ` +
      `of ${formatCount(long.rotations)} rotations on ${CONNECTIONS} new chains (${formatCount(long.rps)} req/s; rss ${mb(afterLong.rss)})${afterLong.gc ? '' : ' [no --expose-gc: heap not collected first]'}`,
  );
  write(line('(a) bare node:http, best round:          ', a));
  write(line('(b) reference exchange, best round:      ', b));
  write(`ratio b/a: ${(b.rps / a.rps).toFixed(2)}  (${formatCount(b.rps)} / ${formatCount(a.rps)} req/s; goal >= 0.5)`);
} finally {
  await Promise.all([stop(bareProc), stop(refProc)]);
}
process.exitCode = failed ? 1 : 0;
