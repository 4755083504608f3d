/**
 * The machine a load run ran on, recorded in every result: a figure means little without it. CPU
 * model and core count (from the kernel's /proc/cpuinfo through `os.cpus()`), Node version,
 * platform, and the load average just before and just after the run (a busy machine makes every
 * figure a floor).
 */
import { arch, cpus, loadavg, platform, release } from 'node:os';

export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly node: string;
  readonly platform: string;
  /** 1, 5 and 15-minute load averages before the run, and after it. */
  readonly loadBefore: readonly number[];
  readonly loadAfter: readonly number[];
}

const round = (xs: number[]) => xs.map((x) => Math.round(x * 100) / 100);

/** The machine now; `finish()` adds the load average after the run. */
export function machineNow(): { finish(): Machine } {
  const list = cpus();
  const cpu = list[0]?.model.trim().replace(/\s+/g, ' ') || 'unknown CPU';
  const before = round(loadavg());
  const base = { cpu, cores: list.length, node: process.version, platform: `${platform()} ${release()} ${arch()}` };
  return { finish: () => ({ ...base, loadBefore: before, loadAfter: round(loadavg()) }) };
}

/** `AMD EPYC, 2 cores, Node v20.20.2, load 0.52 → 1.94` */
export function describeMachine(m: Machine): string {
  return `${m.cpu}, ${m.cores} core(s), Node ${m.node}, load average ${m.loadBefore[0]?.toFixed(2)} before → ${m.loadAfter[0]?.toFixed(2)} after`;
}

/** The machine's 1-minute load average now, and its cores: a load beyond the cores means other work waited for the CPU. */
export function loadNow(): { load: number; cores: number } {
  return { load: Math.round(loadavg()[0]! * 100) / 100, cores: cpus().length };
}
