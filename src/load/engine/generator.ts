/**
 * The load generator's own health: is the figure the target's, or this process's? A load generator
 * that is out of CPU, or whose event loop runs its timers late, sends less than it should and later
 * than it should, and the figures it reports are a floor of the target's capacity.
 *
 * Measured over the measured phase (and per second, for the charts):
 * - CPU: `process.cpuUsage()` (every thread of this process), in % of one core;
 * - event-loop utilisation (`performance.eventLoopUtilization()`): the share of the time the loop
 *   was working rather than waiting for I/O. At 100% nothing more can be sent or read;
 * - event-loop delay (`perf_hooks.monitorEventLoopDelay`): how much later than asked a 10 ms timer
 *   fired (the monitor's own 10 ms taken off);
 * - open model only: slots handed to a free connection `LATE_SLOT_MS` or more after they fell due
 *   (the engine counts them: the generator, not the target, was late).
 *
 * Saturated when any of: the loop busy `BUSY_PCT`% of the time or more, an event-loop delay p99 of
 * `LOOP_DELAY_US` µs or more, late slots at least `LATE_SHARE_PCT`% of the answers.
 */
import { monitorEventLoopDelay, performance, type EventLoopUtilization, type IntervalHistogram } from 'node:perf_hooks';
import type { Machine } from './machine.js';
import type { GeneratorHealth, Second } from '../types.js';
import { formatCount, formatUs } from '../units.js';

export const BUSY_PCT = 90;
export const LOOP_DELAY_US = 20_000;
export const LATE_SHARE_PCT = 1;
export const LATE_SLOT_MS = 10;
const RESOLUTION_MS = 10;

/** A monitor's delays (ns, the 10 ms it waits included) as the delay beyond it, in µs. */
const excessUs = (ns: number) => Math.max(0, Math.round(ns / 1000 - RESOLUTION_MS * 1000));

function delayOf(h: IntervalHistogram): { p50: number; p99: number; max: number } {
  if (h.count === 0) return { p50: 0, p99: 0, max: 0 };
  return { p50: excessUs(h.percentile(50)), p99: excessUs(h.percentile(99)), max: excessUs(h.max) };
}

/** Samples the generator: `begin()` at the start of the measured phase, `second()` once a second, `end()` at the end. */
export class GeneratorProbe {
  private readonly whole = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  private readonly tick = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  private tickElu: EventLoopUtilization = performance.eventLoopUtilization();
  private begun: { cpu: NodeJS.CpuUsage; elu: EventLoopUtilization; at: number } | undefined;

  constructor() {
    this.tick.enable();
  }

  begin(): void {
    if (this.begun) return;
    this.whole.enable();
    this.begun = { cpu: process.cpuUsage(), elu: performance.eventLoopUtilization(), at: performance.now() };
  }

  /** This second (since the previous call): the loop's busy share and its delay p99. */
  second(): { busyPct: number; loopDelayUs: number } {
    const elu = performance.eventLoopUtilization(this.tickElu);
    this.tickElu = performance.eventLoopUtilization();
    const loopDelayUs = delayOf(this.tick).p99;
    this.tick.reset();
    return { busyPct: Math.round(elu.utilization * 1000) / 10, loopDelayUs };
  }

  /** The figures of the measured phase, judged; the monitors stop. */
  end(late: { slots: number; answers: number } | null): GeneratorHealth {
    this.begin();
    const begun = this.begun!;
    const wallMs = Math.max(1, performance.now() - begun.at);
    const cpu = process.cpuUsage(begun.cpu);
    const elu = performance.eventLoopUtilization(begun.elu);
    const delay = delayOf(this.whole);
    this.whole.disable();
    this.tick.disable();
    return judgeHealth({
      cpuPct: Math.round(((cpu.user + cpu.system) / 1000 / wallMs) * 1000) / 10,
      busyPct: Math.round(elu.utilization * 1000) / 10,
      loopDelayUs: delay,
      late: late === null ? null : { ...late, seconds: wallMs / 1000 },
    });
  }
}

interface HealthFigures {
  readonly cpuPct: number;
  readonly busyPct: number;
  readonly loopDelayUs: { readonly p50: number; readonly p99: number; readonly max: number };
  /** Open model: late slots, answers and the measured seconds; null in the closed model. */
  readonly late: { readonly slots: number; readonly answers: number; readonly seconds: number } | null;
}

/** Whether the generator was saturated, and why (the rule of the file comment). */
export function judgeHealth(f: HealthFigures): GeneratorHealth {
  const reasons: string[] = [];
  if (f.busyPct >= BUSY_PCT) reasons.push(`its event loop was busy ${f.busyPct}% of the time (≥ ${BUSY_PCT}%)`);
  if (f.loopDelayUs.p99 >= LOOP_DELAY_US)
    reasons.push(`its timers fired late: event-loop delay p99 ${formatUs(f.loopDelayUs.p99)} (≥ ${formatUs(LOOP_DELAY_US)})`);
  const lateSlots = f.late?.slots ?? null;
  if (f.late && f.late.slots > 0 && f.late.slots * 100 >= f.late.answers * LATE_SHARE_PCT) {
    reasons.push(`${formatCount(f.late.slots)} slot(s) went out ${LATE_SLOT_MS} ms or more late (≥ ${LATE_SHARE_PCT}% of the answers)`);
  }
  return {
    cpuPct: f.cpuPct,
    busyPct: f.busyPct,
    loopDelayUs: f.loopDelayUs,
    lateSlots,
    lateSlotsPerS: f.late === null ? null : Math.round((f.late.slots / Math.max(0.001, f.late.seconds)) * 10) / 10,
    saturated: reasons.length > 0,
    reasons,
  };
}

/** A second in which the generator was saturated, by the same rule (for the marks on the charts). */
export function secondSaturated(s: Second): boolean {
  if ((s.busyPct ?? 0) >= BUSY_PCT || (s.loopDelayUs ?? 0) >= LOOP_DELAY_US) return true;
  const late = s.lateSlots ?? 0;
  return late > 0 && late * 100 >= s.responses * LATE_SHARE_PCT;
}

/** The worst of several (shards, or the steps of a search): each figure's maximum, late slots added, every reason kept with its source. */
export function worstHealth(parts: readonly { readonly label: string; readonly health: GeneratorHealth }[]): GeneratorHealth | undefined {
  if (parts.length === 0) return undefined;
  const hs = parts.map((p) => p.health);
  const late = hs.every((h) => h.lateSlots === null) ? null : hs.reduce((n, h) => n + (h.lateSlots ?? 0), 0);
  const reasons = parts.flatMap((p) => p.health.reasons.map((r) => (parts.length > 1 ? `${p.label}: ${r}` : r)));
  return {
    cpuPct: Math.max(...hs.map((h) => h.cpuPct)),
    busyPct: Math.max(...hs.map((h) => h.busyPct)),
    loopDelayUs: {
      p50: Math.max(...hs.map((h) => h.loopDelayUs.p50)),
      p99: Math.max(...hs.map((h) => h.loopDelayUs.p99)),
      max: Math.max(...hs.map((h) => h.loopDelayUs.max)),
    },
    lateSlots: late,
    lateSlotsPerS: late === null ? null : Math.max(...hs.map((h) => h.lateSlotsPerS ?? 0)),
    saturated: hs.some((h) => h.saturated),
    reasons,
  };
}

/** `CPU 45% of one core, event loop busy 52%, loop delay p99 1.2ms (max 8.1ms), late slots 0/s` */
export function describeHealth(h: GeneratorHealth): string {
  const late = h.lateSlotsPerS === null ? '' : `, late slots ${h.lateSlotsPerS}/s`;
  return (
    `CPU ${Math.round(h.cpuPct)}% of one core, event loop busy ${Math.round(h.busyPct)}%, ` +
    `loop delay p99 ${formatUs(h.loopDelayUs.p99)} (max ${formatUs(h.loopDelayUs.max)})${late}`
  );
}

/** Why it was saturated, the first few reasons (a search repeats them step after step) and how many more. */
export function reasonsText(h: GeneratorHealth, most = 3): string {
  const more = h.reasons.length - most;
  return `${h.reasons.slice(0, most).join('; ')}${more > 0 ? `; and ${more} more (see the JSON)` : ''}`;
}

/** The warning printed (and shown on the page) when the generator was saturated; a busy machine is named as a cause. */
export function saturationWarning(h: GeneratorHealth, builtIn: boolean, machine?: Machine): string {
  const shared = builtIn ? " (the built-in reference server runs in this process: its work is the generator's too)" : '';
  const load = machine ? Math.max(machine.loadBefore[0] ?? 0, machine.loadAfter[0] ?? 0) : 0;
  const busy =
    machine && load > machine.cores
      ? ` The machine was busy: load average ${load.toFixed(1)} on ${machine.cores} core(s), so other processes held the CPU too.`
      : '';
  return (
    `the load generator was saturated: ${reasonsText(h)}${shared}.${busy} ` +
    "These figures are a floor of the target's capacity, not its capacity: give the generator more CPU, or spread the load (--shard)"
  );
}
