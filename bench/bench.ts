/**
 * `npm run bench`: two questions, measured in one run on loopback with the same connections and
 * duration.
 *
 * 1. How close does the reference server's exchange path come to the ceiling of Node on this
 *    machine? (a) tack's `exchange` profile against a bare node:http endpoint that answers every
 *    exchange at once with a fresh token (bench/bare-server.ts), and (b) the same profile against
 *    the reference server. Ratio b/a, goal >= 0.5.
 * 2. What do tack's correctness checks and µs histograms cost? Against the same bare endpoint the
 *    load generator, not the server, is the bottleneck: (a) against (c), a plain autocannon script
 *    with per-connection rotating chains (bench/plain-autocannon.ts). Ratio a/c, goal >= 0.9. The
 *    load generator's own CPU time per answer is printed for both: on a shared machine it is the
 *    steadier figure.
 *
 * 3. Does the capacity search find the same knee twice? Three searches in a row against a target of
 *    fixed capacity (the search's own spread) and three against the reference process (the
 *    machine's too), the spread of their knees (goal ±25%), then a deliberately slow target on
 *    which no step holds, in bounded time (bench/capacity.ts).
 *
 * A third yardstick where Debian's wrk is installed: (w) wrk with a Lua script that sends each
 * answer's refresh_token in its next exchange, against the same bare endpoint (bench/wrk.ts): the
 * physical limit of a load generator here. Skipped, with a message, where wrk is absent.
 *
 * Both servers run in a child process of their own; the load generators run here, one at a time.
 * BENCH_ROUNDS (7) rounds of (a), (c), (w), (b), interleaved, the order reversed every other round;
 * each ratio is the median of the rounds' own ratios with their spread and a bootstrap interval,
 * and "no measurable difference" when that interval holds 1 (bench/stats.ts). Each server's CPU
 * time per answer is printed too. Then a longer exchange
 * run against the same reference process, and its heap after a full GC before and after, to show
 * the token store stays bounded.
 *
 * Settings: BENCH_CONNECTIONS (10), BENCH_DURATION (5s), BENCH_WARMUP (2s), BENCH_ROUNDS (3),
 * BENCH_LONG (30s), BENCH_FIXED_CAPACITY (5000 answers/s), BENCH_ONLY (`capacity`: part (d) alone; `ratios`: the
 * rounds alone), and bench/capacity.ts's. Not a test: it prints figures, and exits 1 only if a run
 * was incorrect.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exchangeProfile } from '../load-profiles/exchange.js';
import { TACK_VERSION } from '../src/version.js';
import { sumEncoded, summarise } from '../src/load/engine/histograms.js';
import { LOAD_DEFAULTS } from '../src/load/defaults.js';
import { runLoad } from '../src/load/run.js';
import { parseDuration } from '../src/cli/options.js';
import { formatCount, formatUs } from '../src/load/units.js';
import { capacityRepeatability, slowTargetSearch } from './capacity.js';
import { plainAutocannon } from './plain-autocannon.js';
import { describeRatio, median, ratioStats } from './stats.js';
import { WRK, type WrkFigures, wrkExchange, wrkInstalled } from './wrk.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const DURATION_MS = parseDuration(process.env.BENCH_DURATION ?? '5s', 'BENCH_DURATION');
const WARMUP_MS = parseDuration(process.env.BENCH_WARMUP ?? '2s', 'BENCH_WARMUP');
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 7));
/** `BENCH_ONLY=capacity`: part (d) alone (the capacity searches), without the rounds. */
const ONLY_CAPACITY = process.env.BENCH_ONLY === 'capacity';
/** `BENCH_ONLY=ratios`: the rounds and their ratios alone, without part (d). */
const ONLY_RATIOS = process.env.BENCH_ONLY === 'ratios';
const LONG_MS = parseDuration(process.env.BENCH_LONG ?? '30s', 'BENCH_LONG');
const FIXED_CAPACITY = Number(process.env.BENCH_FIXED_CAPACITY ?? 5000);

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
  /** The load generator's (this process's) CPU time per answer of the measured phase, in µs. */
  readonly clientCpuUs: number;
  readonly failures: string[];
}

function child(file: string, args: string[] = []): ChildProcess {
  return fork(fileURLToPath(new URL(file, import.meta.url)), args, {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
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

/**
 * tack's exchange profile, through `runLoad` exactly as `tack load exchange` runs it, against a
 * target given by its TACK_* variables. The load generator's CPU is sampled over the measured phase:
 * from when runLoad says where the load goes (the engine starts right after) plus the warmup.
 */
async function tackExchange(proc: ChildProcess, env: Record<string, string>, durationMs: number, tokenPool?: string): Promise<Figures & { rotations: number }> {
  const cpu0 = await cpuOf(proc);
  const samples: NodeJS.CpuUsage[] = [];
  const timers: NodeJS.Timeout[] = [];
  const { result, exitCode } = await runLoad(
    {
      profile: exchangeProfile,
      env,
      connections: CONNECTIONS,
      durationMs,
      warmupMs: WARMUP_MS,
      thresholds: ['errors==0'],
      tolerancePct: LOAD_DEFAULTS.tolerancePct,
      reportsDir: join(scratch, 'reports'),
      tokenPool,
      allowRemote: false,
      faults: [],
      failOnErrors: LOAD_DEFAULTS.failOnErrors,
      quiet: true,
      version: TACK_VERSION,
    },
    {
      write: (text) => {
        if (!text.includes('load goes to')) return;
        timers.push(setTimeout(() => samples.push(process.cpuUsage()), WARMUP_MS));
        timers.push(setTimeout(() => samples.push(process.cpuUsage()), WARMUP_MS + durationMs));
      },
      progress: () => undefined,
    },
  );
  for (const t of timers) clearTimeout(t);
  const cpu = (await cpuOf(proc)) - cpu0;
  const { measured: m, warmup: w } = result;
  const h = sumEncoded(Object.values(result.latency.byClass));
  const p99 = summarise(h).p99;
  h.destroy();
  const [a, b] = samples;
  const clientCpuUs = a && b ? (b.user - a.user + b.system - a.system) / m.responses : 0;
  return {
    rps: m.responses / result.measuredS,
    p99,
    cpuUs: cpu / (m.responses + w.responses),
    clientCpuUs,
    failures: exitCode === 0 ? [] : result.verdict.reasons,
    rotations: w.rotations + m.rotations,
  };
}

async function plain(proc: ChildProcess, port: number): Promise<Figures> {
  const cpu0 = await cpuOf(proc);
  const f = await plainAutocannon({ port, connections: CONNECTIONS, warmupMs: WARMUP_MS, durationMs: DURATION_MS });
  const cpu = (await cpuOf(proc)) - cpu0;
  const failures = f.rotations < f.answers ? [`${f.answers - f.rotations} answer(s) without a new token`] : [];
  return { rps: f.rps, p99: NaN, cpuUs: cpu / f.answers, clientCpuUs: f.clientCpuUs, failures };
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
const heapOf = (proc: ChildProcess) => ask(proc, 'heap', (m) => (m as { heap?: Heap })?.heap);
const write = (s: string) => process.stdout.write(`${s}\n`);
const line = (name: string, f: Figures) =>
  `${name} ${formatCount(f.rps).padStart(8)} req/s   p99 ${(Number.isNaN(f.p99) ? '-' : formatUs(f.p99)).padStart(7)}   ` +
  `server CPU ${f.cpuUs.toFixed(1)} µs/answer   load generator CPU ${f.clientCpuUs.toFixed(1)} µs/answer` +
  (f.failures.length ? `   FAILED: ${f.failures.join('; ')}` : '');

const cores = cpus();
const cpuModel = cores[0]?.model.trim() ?? 'unknown CPU';
write(`tack bench: ${cpuModel}, ${cores.length} core(s), Node ${process.version}, load average ${loadavg()[0]!.toFixed(2)} at start`);
write(
  `${CONNECTIONS} connections, ${ROUNDS} round(s) of (a) tack → bare endpoint, (c) plain autocannon → bare endpoint, (w) wrk → bare endpoint, ` +
    `(b) tack → reference, in alternating order; each ${DURATION_MS / 1000} s measured after ${WARMUP_MS / 1000} s warmup (wrk: the whole run); ` +
    "each server in its own process, the load generators in this one (wrk in its own); each ratio is the median of the rounds' ratios\n",
);

const scratch = mkdtempSync(join(tmpdir(), 'tack-bench-'));
const bareProc = child('./bare-server.ts');
const refProc = child('./reference-server.ts');
let failed = false;
try {
  const port = await ask(bareProc, undefined, (m) => (m as { port?: number })?.port);
  const fullEnv = await ask(refProc, undefined, (m) => (m as { env?: Record<string, string> })?.env);
  // Hook mode: one fresh user and API token per connection (TACK_USER_EMAIL is for hookless mode).
  const refEnv = Object.fromEntries(Object.entries(fullEnv).filter(([k]) => k !== 'TACK_USER_EMAIL'));
  // The bare endpoint has no hook: tack takes its chains from a token pool of made-up tokens (any is accepted).
  const bareEnv = { TACK_BASE_URL: `http://acme.localhost:${port}`, TACK_IDENTITY_URL: `http://id.localhost:${port}/realms/payroll` };
  const pool = join(scratch, 'pool.txt');
  writeFileSync(pool, `${Array.from({ length: CONNECTIONS }, (_, i) => `bench-api-token-${i + 1}`).join('\n')}\n`, { mode: 0o600 });
  const before = await heapOf(refProc);
  const as: Figures[] = [];
  const bs: Figures[] = [];
  const cs: Figures[] = [];
  const ws: WrkFigures[] = [];
  const withWrk = !ONLY_CAPACITY && wrkInstalled();
  if (!ONLY_CAPACITY && !withWrk) write(`(w) wrk is not installed at ${WRK}: the third yardstick is skipped (apt-get install wrk)`);
  for (let round = 1; round <= (ONLY_CAPACITY ? 0 : ROUNDS); round++) {
    // Interleaved, and the order reversed every other round: a drift of the machine's load hits every side alike.
    const order = round % 2 === 1 ? (['a', 'c', 'w', 'b'] as const) : (['b', 'w', 'c', 'a'] as const);
    for (const side of order) {
      if (side === 'a') {
        const a = await tackExchange(bareProc, bareEnv, DURATION_MS, pool);
        as.push(a);
        write(line(`round ${round} (a) tack → bare endpoint:      `, a));
        failed ||= a.failures.length > 0;
      } else if (side === 'c') {
        const c = await plain(bareProc, port);
        cs.push(c);
        write(line(`round ${round} (c) plain autocannon → bare:   `, c));
        failed ||= c.failures.length > 0;
      } else if (side === 'w') {
        if (!withWrk) continue;
        const cpu0 = await cpuOf(bareProc);
        const w = await wrkExchange({ port, connections: CONNECTIONS, durationMs: WARMUP_MS + DURATION_MS });
        const cpuUs = ((await cpuOf(bareProc)) - cpu0) / w.answers;
        ws.push(w);
        const failures = w.rotations < w.answers ? [`${w.answers - w.rotations} answer(s) without a new token`] : [];
        write(line(`round ${round} (w) wrk → bare endpoint:       `, { ...w, p99: NaN, cpuUs, failures }));
        failed ||= failures.length > 0;
      } else {
        const b = await tackExchange(refProc, refEnv, DURATION_MS);
        bs.push(b);
        write(line(`round ${round} (b) tack → reference exchange: `, b));
        failed ||= b.failures.length > 0;
      }
    }
  }
  if (!ONLY_CAPACITY) {
    const afterRounds = await heapOf(refProc);
    const long = await tackExchange(refProc, refEnv, LONG_MS);
    failed ||= long.failures.length > 0;
    const afterLong = await heapOf(refProc);
    write('');
    write(
      `reference heap after a full GC: ${mb(before.heapUsed)} at start, ${mb(afterRounds.heapUsed)} after the rounds, ` +
        `${mb(afterLong.heapUsed)} after a further ${LONG_MS / 1000} s run ` +
        `(${formatCount(long.rotations)} rotations on ${CONNECTIONS} new chains, ${formatCount(long.rps)} req/s); ` +
        `rss ${mb(afterLong.rss)}${afterLong.gc ? '' : ' [no --expose-gc: not collected first]'}`,
    );
    write(`load average at the end: ${loadavg()[0]!.toFixed(2)}`);
    const med = (list: readonly { rps: number }[]) => formatCount(median(list.map((f) => f.rps)));
    const of = <T>(list: readonly T[], key: (f: T) => number) => list.map(key);
    write(
      `median of ${ROUNDS} rounds: (a) tack → bare ${med(as)} req/s, (c) plain autocannon → bare ${med(cs)} req/s, ` +
        `(w) wrk → bare ${ws.length > 0 ? med(ws) : '-'} req/s, (b) tack → reference ${med(bs)} req/s`,
    );
    write("each ratio below is the median of the rounds' own ratios, with their spread and a 95% bootstrap interval of that median:");
    write(
      `ratio b/a, reference vs bare node:http (req/s):        ${describeRatio(
        ratioStats(
          of(bs, (f) => f.rps),
          of(as, (f) => f.rps),
        ),
      )}; goal >= 0.5`,
    );
    write(
      `server CPU-bound ratio b/a (bare µs / reference µs):   ${describeRatio(
        ratioStats(
          of(as, (f) => f.cpuUs),
          of(bs, (f) => f.cpuUs),
        ),
      )}`,
    );
    write(
      `ratio a/c, tack vs plain autocannon (req/s):           ${describeRatio(
        ratioStats(
          of(as, (f) => f.rps),
          of(cs, (f) => f.rps),
        ),
      )}; goal >= 0.9`,
    );
    write(
      `driver cost ratio c/a (load generator CPU per answer): ${describeRatio(
        ratioStats(
          of(cs, (f) => f.clientCpuUs),
          of(as, (f) => f.clientCpuUs),
        ),
      )}`,
    );
    if (ws.length > 0) {
      write(
        `ratio a/w, tack vs wrk (req/s):                        ${describeRatio(
          ratioStats(
            of(as, (f) => f.rps),
            of(ws, (f) => f.rps),
          ),
        )}`,
      );
      write(
        `driver cost ratio a/w (tack's CPU per answer / wrk's): ${describeRatio(
          ratioStats(
            of(as, (f) => f.clientCpuUs),
            of(ws, (f) => f.clientCpuUs),
          ),
        )}`,
      );
    }
  }
  // (d) The same search three times: on a target of fixed capacity (the search's own spread), then on the reference.
  if (!ONLY_RATIOS) {
    const fixedProc = child('./bare-server.ts', [String(FIXED_CAPACITY)]);
    try {
      const fixedPort = await ask(fixedProc, undefined, (m) => (m as { port?: number })?.port);
      const fixedPool = join(scratch, 'fixed-pool.txt');
      writeFileSync(fixedPool, `${Array.from({ length: 50 }, (_, i) => `bench-fixed-token-${i + 1}`).join('\n')}\n`, { mode: 0o600 });
      const fixedEnv = {
        TACK_BASE_URL: `http://acme.localhost:${fixedPort}`,
        TACK_IDENTITY_URL: `http://id.localhost:${fixedPort}/realms/payroll`,
        TACK_LOAD_TOKEN_POOL: fixedPool,
      };
      const what = `a target of fixed capacity (${formatCount(FIXED_CAPACITY)} answers/s, one queue, its own process)`;
      failed = (await capacityRepeatability(what, fixedEnv, scratch, write, 3000)) || failed;
    } finally {
      await stop(fixedProc);
    }
    if (bs.length > 1) {
      const spread = (100 * (Math.max(...bs.map((f) => f.rps)) - Math.min(...bs.map((f) => f.rps)))) / Math.min(...bs.map((f) => f.rps));
      write(`(the reference's closed-model rounds (b) above differ by ${spread.toFixed(0)}% between the slowest and the fastest: the machine's own spread)`);
    }
    failed = (await capacityRepeatability('the reference process', refEnv, scratch, write)) || failed;
    failed = (await slowTargetSearch(scratch, write)) || failed;
  }
} finally {
  await Promise.all([stop(bareProc), stop(refProc)]);
  rmSync(scratch, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
