/**
 * Benchmark yardstick (w): Debian's wrk (/usr/bin/wrk, C and epoll) with bench/wrk-exchange.lua,
 * the physical limit of a load generator on this machine for the same rotating exchange against
 * the same bare endpoint. Its CPU time is read with the shell's `times` (the children's user and
 * system time), over the whole run: wrk has no warmup phase, so answers and CPU both cover it all.
 * Where wrk is not installed, `wrkExchange` says so and returns undefined.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const WRK = process.env.BENCH_WRK ?? '/usr/bin/wrk';

export interface WrkFigures {
  readonly rps: number;
  readonly answers: number;
  readonly rotations: number;
  /** wrk's CPU time (user + system) per answer, µs. */
  readonly clientCpuUs: number;
}

/** `0m1.234s` → seconds. */
const seconds = (t: string) => {
  const m = /^(\d+)m([\d.]+)s$/.exec(t);
  return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
};

/** Reads wrk's output and the `times` lines after it. */
export function parseWrk(output: string): WrkFigures | undefined {
  const answers = /(\d+) requests in ([\d.]+)(m?s)/.exec(output);
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(output);
  const rotations = /rotations (\d+)/.exec(output);
  const times = output.trim().split('\n').slice(-1)[0]?.trim().split(/\s+/) ?? [];
  if (!answers || !rps || !rotations || times.length !== 2) return undefined;
  const cpuS = seconds(times[0]!) + seconds(times[1]!);
  const n = Number(answers[1]);
  return { rps: Number(rps[1]), answers: n, rotations: Number(rotations[1]), clientCpuUs: n > 0 ? (cpuS * 1e6) / n : 0 };
}

export function wrkInstalled(): boolean {
  return existsSync(WRK);
}

export function wrkExchange(o: { port: number; connections: number; durationMs: number }): Promise<WrkFigures> {
  const script = fileURLToPath(new URL('./wrk-exchange.lua', import.meta.url));
  const seconds = Math.max(1, Math.round(o.durationMs / 1000));
  const cmd = `"$0" -t${o.connections} -c${o.connections} -d${seconds}s -s "$1" "$2" -- "$3" && times`;
  const args = [WRK, script, `http://127.0.0.1:${o.port}/`, `id.localhost:${o.port}`];
  return new Promise((resolve, reject) => {
    execFile('bash', ['-c', cmd, ...args], { timeout: o.durationMs + 30_000 }, (error, stdout) => {
      if (error) return reject(error);
      const f = parseWrk(stdout);
      return f ? resolve(f) : reject(new Error(`wrk's output could not be read: ${stdout.slice(0, 200)}`));
    });
  });
}
