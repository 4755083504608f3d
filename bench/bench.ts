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
 * down). Each server's CPU time per answer is printed too: on a busy machine it is the steadier
 * figure. Then a longer exchange run against the same reference process, and its heap after a full
 * GC before and after, to show the token store stays bounded. The last line is the ratio b/a.
 *
 * Settings: BENCH_CONNECTIONS (10), BENCH_DURATION (5s), BENCH_WARMUP (2s), BENCH_ROUNDS (3),
 * BENCH_LONG (30s). Not a test: it prints figures, and exits 1 only if a run was incorrect.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { LoadChain } from '../scenarios/load/chains.js';
import { ExchangeConversation, exchangeProfile } from '../scenarios/load/exchange.js';
import { TACK_VERSION } from '../src/cli/options.js';
import { runEngine } from '../src/load/engine.js';
import { sumEncoded, summarise } from '../src/load/histograms.js';
import { runLoad } from '../src/load/run.js';
import { formatCount, formatUs, parseDurationMs } from '../src/load/units.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const DURATION_MS = parseDurationMs(process.env.BENCH_DURATION ?? '5s', 'BENCH_DURATION');
const WARMUP_MS = parseDurationMs(process.env.BENCH_WARMUP ?? '2s', 'BENCH_WARMUP');
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const LONG_MS = parseDurationMs(process.env.BENCH_LONG ?? '30s', 'BENCH_LONG');

interface Heap {
  readonly heapUsed: number;
  readonly rss: number;
  readonly gc: boolean;
}

interface Figures {
  readonly rps: number;
  readonly p99: number;
  /** The server's CPU time (user + system) per answer, warmup included, in µs. */
  readonly cpuUs: number;
  readonly failures: string[];
}

function child(file: string): ChildProcess {
  return fork(fileURLToPath(new URL(file, import.meta.url)), [], { execArgv: ['--import', 'tsx', '--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

function ask<T>(proc: ChildProcess, message: string | undefined, pick: (m: unknown) => T | undefined): Promise<T> {
  const reply = new Promise<T>((resolve, reject) => {
    const onMessage = (m: unknown) => {
      const v = pick(m);
      if (v === undefined) return;
      proc.off('message', onMessage);
      proc.off('exit', onExit);
      resolve(v);
    };
    const onExit = (code: number | null) => reject(new Error(`a benchmark server exited (${code})`));
    proc.on('message', onMessage);
    proc.once('exit', onExit);
  });
  if (message !== undefined) proc.send(message);
  return reply;
}

const cpuOf = async (proc: ChildProcess) => {
  const { user, system } = await ask(proc, 'cpu', (m) => (m as { cpu?: NodeJS.CpuUsage })?.cpu);
  return user + system;
};

async function stop(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.disconnect();
  const timer = setTimeout(() => proc.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}

async function bare(proc: ChildProcess, port: number): Promise<Figures> {
  const endpoint = { connectUrl: `http://127.0.0.1:${port}`, host: `id.localhost:${port}`, pathPrefix: '/realms/payroll', servername: undefined, loopback: true };
  const cpu0 = await cpuOf(proc);
  const { recorder } = await runEngine({
    connections: CONNECTIONS,
    warmupMs: WARMUP_MS,
    durationMs: DURATION_MS,
    rate: undefined,
    timeoutMs: 10_000,
    // The bare server accepts any token and answers a fresh one: the chain rotates as against a real server.
    conversation: (i, tally) => new ExchangeConversation(new LoadChain(`chain ${i + 1}`, `bench-api-token-${i}`, undefined), endpoint, 'payroll-portal', tally),
  });
  const cpu = (await cpuOf(proc)) - cpu0;
  const { measured: m, warmup: w } = recorder;
  const bad = m.non2xx + m.malformed + m.errors + m.timeouts + m.broken + w.non2xx + w.malformed + w.errors + w.timeouts + w.broken;
  const figures = { rps: m.responses / recorder.measuredSeconds(), p99: recorder.p99SoFar(), cpuUs: cpu / (m.responses + w.responses), failures: bad ? [`${bad} failed requests`] : [] };
  recorder.destroy();
  return figures;
}

async function reference(proc: ChildProcess, env: Record<string, string>, durationMs: number): Promise<Figures & { rotations: number }> {
  const cpu0 = await cpuOf(proc);
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
  const cpu = (await cpuOf(proc)) - cpu0;
  const { measured: m, warmup: w } = result;
  const h = sumEncoded(Object.values(result.latency.byClass));
  const p99 = summarise(h).p99;
  h.destroy();
  return { rps: m.responses / result.measuredS, p99, cpuUs: cpu / (m.responses + w.responses), failures: exitCode === 0 ? [] : result.verdict.reasons, rotations: w.rotations + m.rotations };
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
const heapOf = (proc: ChildProcess) => ask(proc, 'heap', (m) => (m as { heap?: Heap })?.heap);
const write = (s: string) => process.stdout.write(s + '\n');
const line = (name: string, f: Figures) =>
  `${name} ${formatCount(f.rps).padStart(8)} req/s   p99 ${formatUs(f.p99).padStart(7)}   server CPU ${f.cpuUs.toFixed(1)} µs/answer` + (f.failures.length ? `   FAILED: ${f.failures.join('; ')}` : '');

const cores = cpus();
write(`tack bench: ${cores.length} core(s) ${cores[0]?.model.trim() ?? ''}, node ${process.version}`);
write(
  `${CONNECTIONS} connections, ${ROUNDS} round(s) of (a) then (b), each ${DURATION_MS / 1000} s measured after ${WARMUP_MS / 1000} s warmup; ` +
    'each server in its own process, the load engine in this one; the best round of each counts\n',
);

const bareProc = child('./bare-server.ts');
const refProc = child('./reference-server.ts');
let failed = false;
try {
  const port = await ask(bareProc, undefined, (m) => (m as { port?: number })?.port);
  const fullEnv = await ask(refProc, undefined, (m) => (m as { env?: Record<string, string> })?.env);
  // Hook mode: one fresh user and API token per connection (TACK_USER_EMAIL is for hookless mode).
  const env = Object.fromEntries(Object.entries(fullEnv).filter(([k]) => k !== 'TACK_USER_EMAIL'));
  const before = await heapOf(refProc);
  const as: Figures[] = [];
  const bs: Figures[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const a = await bare(bareProc, port);
    as.push(a);
    write(line(`round ${round} (a) bare node:http:          `, a));
    const b = await reference(refProc, env, DURATION_MS);
    bs.push(b);
    write(line(`round ${round} (b) reference exchange:      `, b));
    failed ||= a.failures.length > 0 || b.failures.length > 0;
  }
  const afterRounds = await heapOf(refProc);
  const long = await reference(refProc, env, LONG_MS);
  failed ||= long.failures.length > 0;
  const afterLong = await heapOf(refProc);
  const best = (list: Figures[]) => list.reduce((x, y) => (y.rps > x.rps ? y : x));
  const leastCpu = (list: Figures[]) => Math.min(...list.map((f) => f.cpuUs));
  const a = best(as);
  const b = best(bs);
  write('');
  write(
    `reference heap after a full GC: ${mb(before.heapUsed)} at start, ${mb(afterRounds.heapUsed)} after the rounds, ` +
      `${mb(afterLong.heapUsed)} after a further ${LONG_MS / 1000} s run (${formatCount(long.rotations)} rotations on ${CONNECTIONS} new chains, ${formatCount(long.rps)} req/s); ` +
      `rss ${mb(afterLong.rss)}${afterLong.gc ? '' : ' [no --expose-gc: not collected first]'}`,
  );
  write(`server CPU per answer (least of the rounds): (a) ${leastCpu(as).toFixed(1)} µs, (b) ${leastCpu(bs).toFixed(1)} µs; CPU-bound capacity ratio b/a ${(leastCpu(as) / leastCpu(bs)).toFixed(2)}`);
  write(line('(a) bare node:http, best round:    ', a));
  write(line('(b) reference exchange, best round:', b));
  write(`ratio b/a: ${(b.rps / a.rps).toFixed(2)}  (${formatCount(b.rps)} / ${formatCount(a.rps)} req/s; goal >= 0.5)`);
} finally {
  await Promise.all([stop(bareProc), stop(refProc)]);
}
process.exitCode = failed ? 1 : 0;
