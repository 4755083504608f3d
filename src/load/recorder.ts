/**
 * What a load run measures, recorded as it happens: counts per phase (warmup, measured), latency
 * histograms (µs, by status class) and a per-second timeline of the measured phase. The engine
 * feeds it; progress lines and the final result read it.
 *
 * Warmup traffic is checked like any other (a chain that breaks during warmup fails the run too),
 * but its latencies and throughput are left out.
 */
import { encode, newHistogram, toMicros, type Histogram } from './histograms.js';
import { emptyCounts, statusClassOf, type ChainBreak, type Counts, type Second, type StatusClass } from './types.js';

export type Phase = 'warmup' | 'measured';

/** What a profile made of one answer. */
export type Outcome =
  /** A correct answer. */
  | { readonly kind: 'ok' }
  /** A refusal the client expects and handles (a 401 on an expired access token). */
  | { readonly kind: 'expected' }
  /** A non-2xx answer the profile did not expect. */
  | { readonly kind: 'non2xx' }
  /** An answer against the spec: a 2xx whose body is not as the spec says, no rotation, a young access token refused. */
  | { readonly kind: 'malformed'; readonly detail: string }
  /** The chain's current token was refused: the chain is over. */
  | { readonly kind: 'broken'; readonly cause: 'rotation' | 'lost'; readonly error: string };

const MAX_LISTED_BREAKS = 100;

interface LiveSecond {
  responses: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  latency: Histogram;
}

export class Recorder {
  readonly warmup: Counts = emptyCounts();
  readonly measured: Counts = emptyCounts();
  readonly byClass = new Map<StatusClass, Histogram>();
  /** Open model: all statuses, measured from when each request's slot fell due (coordinated-omission corrected). */
  readonly corrected: Histogram | undefined;
  readonly breaks: ChainBreak[] = [];
  breaksNotListed = 0;
  private readonly seconds: LiveSecond[] = [];
  /** `performance.now()` ms of the first request, of the start of the measured phase, and of its end. */
  readonly startedAt: number;
  readonly measureFrom: number;
  measureUntil: number;
  lastResponseAt = 0;

  constructor(options: { startedAt: number; warmupMs: number; durationMs: number; fixedRate: boolean }) {
    this.startedAt = options.startedAt;
    this.measureFrom = options.startedAt + options.warmupMs;
    this.measureUntil = this.measureFrom + options.durationMs;
    this.corrected = options.fixedRate ? newHistogram() : undefined;
  }

  phaseAt(now: number): Phase {
    return now < this.measureFrom ? 'warmup' : 'measured';
  }

  counts(phase: Phase): Counts {
    return phase === 'warmup' ? this.warmup : this.measured;
  }

  /** One answer: its status, its service time (ms, fractional) and, in the open model, the time since its slot fell due. */
  response(status: number, ms: number, now: number, sinceDueMs?: number): void {
    const phase = this.phaseAt(now);
    const c = this.counts(phase);
    c.responses++;
    const key = String(status);
    c.byStatus[key] = (c.byStatus[key] ?? 0) + 1;
    if (phase === 'warmup') return;
    this.lastResponseAt = now;
    const us = toMicros(ms);
    const cls = statusClassOf(status);
    let h = this.byClass.get(cls);
    if (!h) {
      h = newHistogram();
      this.byClass.set(cls, h);
    }
    h.recordValue(us);
    if (this.corrected) this.corrected.recordValue(sinceDueMs !== undefined && sinceDueMs > ms ? toMicros(sinceDueMs) : us);
    const second = this.second(now);
    second.responses++;
    if (status < 200 || status > 299) second.non2xx++;
    second.latency.recordValue(us);
  }

  outcome(outcome: Outcome, now: number, chain: { label: string; rotations: number }, status: number): void {
    const phase = this.phaseAt(now);
    const c = this.counts(phase);
    switch (outcome.kind) {
      case 'ok':
        c.ok++;
        return;
      case 'expected':
        c.expected++;
        return;
      case 'non2xx':
        c.non2xx++;
        return;
      case 'malformed':
        c.malformed++;
        this.note(phase, `malformed: ${outcome.detail}`);
        return;
      case 'broken':
        if (outcome.cause === 'rotation') c.broken++;
        else c.lost++;
        if (this.breaks.length >= MAX_LISTED_BREAKS) {
          this.breaksNotListed++;
          return;
        }
        this.breaks.push({
          chain: chain.label,
          cause: outcome.cause,
          atS: Math.round(now - this.startedAt) / 1000,
          phase,
          afterRotations: chain.rotations,
          status,
          error: outcome.error,
        });
    }
  }

  rotation(now: number): void {
    this.counts(this.phaseAt(now)).rotations++;
  }

  note(phase: Phase, name: string): void {
    const c = this.counts(phase);
    c.notes[name] = (c.notes[name] ?? 0) + 1;
  }

  error(code: string, now: number): void {
    const phase = this.phaseAt(now);
    const c = this.counts(phase);
    c.errors++;
    c.errorCodes[code] = (c.errorCodes[code] ?? 0) + 1;
    if (phase === 'measured') this.second(now).errors++;
  }

  timeout(now: number): void {
    const phase = this.phaseAt(now);
    this.counts(phase).timeouts++;
    if (phase === 'measured') this.second(now).timeouts++;
  }

  /** The measured phase's length in seconds: up to its end, or to the last drained answer. */
  measuredSeconds(): number {
    const end = Math.max(this.measureUntil, this.lastResponseAt);
    return Math.max(0, end - this.measureFrom) / 1000;
  }

  /** p99 of the measured phase so far (µs), all statuses as answered; 0 before it starts. For progress lines. */
  p99SoFar(): number {
    if (this.byClass.size === 0) return 0;
    const h = newHistogram();
    for (const c of this.byClass.values()) h.add(c);
    const p99 = h.totalCount > 0 ? h.getValueAtPercentile(99) : 0;
    h.destroy();
    return p99;
  }

  /** The seconds of the measured phase; the last one's `spanS` says how much of a second it covered. */
  timeline(): Second[] {
    const out: Second[] = [];
    const measuredS = this.measuredSeconds();
    this.seconds.forEach((s, i) => {
      const spanS = Math.round(Math.min(1, Math.max(0.001, measuredS - i)) * 1000) / 1000;
      out.push({ s: i, spanS, responses: s.responses, non2xx: s.non2xx, errors: s.errors, timeouts: s.timeouts, latency: encode(s.latency) });
    });
    return out;
  }

  encodedByClass(): Partial<Record<StatusClass, string>> {
    const out: Partial<Record<StatusClass, string>> = {};
    for (const [cls, h] of [...this.byClass].sort(([a], [b]) => a.localeCompare(b))) out[cls] = encode(h);
    return out;
  }

  destroy(): void {
    for (const h of this.byClass.values()) h.destroy();
    for (const s of this.seconds) s.latency.destroy();
    this.corrected?.destroy();
  }

  /** The bucket of `now`; answers drained after the end go into the last whole second. */
  private second(now: number): LiveSecond {
    const last = Math.max(0, Math.ceil((this.measureUntil - this.measureFrom) / 1000) - 1);
    const i = Math.min(Math.max(0, Math.floor((now - this.measureFrom) / 1000)), last);
    while (this.seconds.length <= i) this.seconds.push({ responses: 0, non2xx: 0, errors: 0, timeouts: 0, latency: newHistogram() });
    return this.seconds[i]!;
  }
}
