/**
 * What a load run measures, recorded as it happens: counts per phase (warmup, measured), latency
 * histograms (µs, by status class), the same again per request kind (exchange, search, ...), and a
 * per-second timeline of the measured phase. The engine feeds it; progress lines and the final
 * result read it.
 *
 * One measure of latency per run: as answered in the closed model, coordinated-omission corrected
 * (from when the slot fell due) in the open model. The per-second timeline and the progress lines
 * use that same measure, so the console, the charts and the summary mean the same p99.
 *
 * Warmup traffic is checked like any other (a chain that breaks during warmup fails the run too),
 * but its latencies and throughput are left out.
 */
import { encode, newHistogram, toMicros, type Histogram } from './histograms.js';
import {
  emptyCounts,
  statusClassOf,
  type ChainBreak,
  type Counts,
  type EndpointResult,
  type RaceFork,
  type RequestKind,
  type Second,
  type StatusClass,
} from '../types.js';

type Phase = 'warmup' | 'measured';

/** What a profile made of one answer. */
export type AnswerOutcome =
  /** A correct answer. */
  | { readonly kind: 'ok' }
  /** A refusal the client expects and handles (a 401 on an expired access token). */
  | { readonly kind: 'expected' }
  /** A non-2xx answer the profile did not expect. */
  | { readonly kind: 'non2xx' }
  /** An answer against the spec: a 2xx whose body is not as the spec says, no rotation, a young access token refused. */
  | { readonly kind: 'malformed'; readonly detail: string }
  /** The chain's current token was refused: the chain is over. */
  | { readonly kind: 'broken'; readonly cause: 'rotation' | 'lost'; readonly error: string }
  /**
   * A race probe forked the chain (load-profiles/race-probe.ts): of its two exchanges of one token,
   * `exchanged` returned a token and `alive` of those still exchanged, where one at a time leaves one.
   */
  | { readonly kind: 'forked'; readonly exchanged: number; readonly alive: number; readonly afterRotations: number };

const MAX_LISTED_BREAKS = 100;

interface LiveSecond {
  responses: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  latency: Histogram;
  busyPct?: number;
  loopDelayUs?: number;
  lateSlots?: number;
}

/** Counts by phase and histograms of the measured phase: of the whole run, or of one request kind. */
class Book {
  readonly warmup: Counts = emptyCounts();
  readonly measured: Counts = emptyCounts();
  readonly byClass = new Map<StatusClass, Histogram>();
  readonly corrected: Histogram | undefined;

  constructor(fixedRate: boolean) {
    this.corrected = fixedRate ? newHistogram() : undefined;
  }

  counts(phase: Phase): Counts {
    return phase === 'warmup' ? this.warmup : this.measured;
  }

  response(phase: Phase, status: number, us: number, correctedUs: number): void {
    const c = this.counts(phase);
    c.responses++;
    const key = String(status);
    c.byStatus[key] = (c.byStatus[key] ?? 0) + 1;
    if (phase === 'warmup') return;
    const cls = statusClassOf(status);
    let h = this.byClass.get(cls);
    if (!h) {
      h = newHistogram();
      this.byClass.set(cls, h);
    }
    h.recordValue(us);
    this.corrected?.recordValue(correctedUs);
  }

  outcome(phase: Phase, outcome: AnswerOutcome): void {
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
        return;
      case 'forked':
        c.forks = (c.forks ?? 0) + 1;
    }
  }

  note(phase: Phase, name: string): void {
    const c = this.counts(phase);
    c.notes[name] = (c.notes[name] ?? 0) + 1;
  }

  error(phase: Phase, code: string): void {
    const c = this.counts(phase);
    c.errors++;
    c.errorCodes[code] = (c.errorCodes[code] ?? 0) + 1;
  }

  encodedByClass(): Partial<Record<StatusClass, string>> {
    const out: Partial<Record<StatusClass, string>> = {};
    for (const [cls, h] of [...this.byClass].sort(([a], [b]) => a.localeCompare(b))) out[cls] = encode(h);
    return out;
  }

  destroy(): void {
    for (const h of this.byClass.values()) h.destroy();
    this.corrected?.destroy();
  }
}

export class Recorder {
  private readonly all: Book;
  private readonly kinds = new Map<RequestKind, Book>();
  readonly breaks: ChainBreak[] = [];
  breaksNotListed = 0;
  readonly forks: RaceFork[] = [];
  forksNotListed = 0;
  private readonly seconds: LiveSecond[] = [];
  /** The answers since the last progress line, in the run's measure (for the progress line's p99). */
  private readonly interval = newHistogram();
  private readonly fixedRate: boolean;
  /** `performance.now()` ms of the first request, of the start of the measured phase, and of its end. */
  readonly startedAt: number;
  readonly measureFrom: number;
  measureUntil: number;
  lastResponseAt = 0;
  /** Open model: slots of the measured phase sent late by the generator (see generator.ts). */
  lateSlots = 0;
  /** The generator's figures of the latest interval (about a second), warmup included: what live outputs show. */
  generatorNow: { readonly busyPct: number; readonly loopDelayUs: number } | undefined;

  constructor(options: { startedAt: number; warmupMs: number; durationMs: number; fixedRate: boolean }) {
    this.startedAt = options.startedAt;
    this.measureFrom = options.startedAt + options.warmupMs;
    this.measureUntil = this.measureFrom + options.durationMs;
    this.fixedRate = options.fixedRate;
    this.all = new Book(options.fixedRate);
  }

  get warmup(): Counts {
    return this.all.warmup;
  }

  get measured(): Counts {
    return this.all.measured;
  }

  /** Open model: all statuses, measured from when each request's slot fell due (coordinated-omission corrected). */
  get corrected(): Histogram | undefined {
    return this.all.corrected;
  }

  phaseAt(now: number): Phase {
    return now < this.measureFrom ? 'warmup' : 'measured';
  }

  counts(phase: Phase): Counts {
    return this.all.counts(phase);
  }

  private book(kind: RequestKind): Book {
    let b = this.kinds.get(kind);
    if (!b) {
      b = new Book(this.fixedRate);
      this.kinds.set(kind, b);
    }
    return b;
  }

  /** One answer: its status, its service time (ms, fractional) and, in the open model, the time since its slot fell due. */
  response(status: number, ms: number, now: number, sinceDueMs: number | undefined, kind: RequestKind): void {
    const phase = this.phaseAt(now);
    const us = toMicros(ms);
    // The run's measure: in the open model, from when the slot fell due when that is longer.
    const measure = sinceDueMs !== undefined && sinceDueMs > ms ? toMicros(sinceDueMs) : us;
    this.all.response(phase, status, us, measure);
    this.book(kind).response(phase, status, us, measure);
    this.interval.recordValue(measure);
    if (phase === 'warmup') return;
    this.lastResponseAt = now;
    const second = this.second(now);
    second.responses++;
    if (status < 200 || status > 299) second.non2xx++;
    second.latency.recordValue(measure);
  }

  outcome(outcome: AnswerOutcome, now: number, chain: { label: string; rotations: number }, status: number, kind: RequestKind): void {
    const phase = this.phaseAt(now);
    this.all.outcome(phase, outcome);
    this.book(kind).outcome(phase, outcome);
    if (outcome.kind === 'forked') {
      const { exchanged, alive, afterRotations } = outcome;
      if (this.forks.length < MAX_LISTED_BREAKS)
        this.forks.push({ chain: chain.label, atS: Math.round(now - this.startedAt) / 1000, phase, afterRotations, exchanged, alive });
      else this.forksNotListed++;
      return;
    }
    if (outcome.kind !== 'broken') return;
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

  /** A race probe sent: one token twice at the same moment. */
  raceProbe(now: number, kind: RequestKind): void {
    const phase = this.phaseAt(now);
    for (const c of [this.all.counts(phase), this.book(kind).counts(phase)]) c.raceProbes = (c.raceProbes ?? 0) + 1;
  }

  rotation(now: number, kind: RequestKind | undefined): void {
    const phase = this.phaseAt(now);
    this.all.counts(phase).rotations++;
    if (kind) this.book(kind).counts(phase).rotations++;
  }

  note(phase: Phase, name: string, kind?: RequestKind): void {
    this.all.note(phase, name);
    if (kind) this.book(kind).note(phase, name);
  }

  error(code: string, now: number, kind: RequestKind): void {
    const phase = this.phaseAt(now);
    this.all.error(phase, code);
    this.book(kind).error(phase, code);
    if (phase === 'measured') this.second(now).errors++;
  }

  timeout(now: number, kind: RequestKind): void {
    const phase = this.phaseAt(now);
    this.all.counts(phase).timeouts++;
    this.book(kind).counts(phase).timeouts++;
    if (phase === 'measured') this.second(now).timeouts++;
  }

  /** A slot the generator sent late (open model). */
  late(now: number): void {
    if (this.phaseAt(now) === 'warmup') return;
    this.lateSlots++;
    const s = this.second(now);
    s.lateSlots = (s.lateSlots ?? 0) + 1;
  }

  /** The generator's figures of the interval that ends `now` (about a second), put in the second it mostly covers. */
  generatorSecond(now: number, spanMs: number, figures: { busyPct: number; loopDelayUs: number }): void {
    this.generatorNow = figures;
    const mid = now - spanMs / 2;
    if (mid < this.measureFrom) return;
    const s = this.second(mid);
    s.busyPct = Math.max(s.busyPct ?? 0, figures.busyPct);
    s.loopDelayUs = Math.max(s.loopDelayUs ?? 0, figures.loopDelayUs);
  }

  /** The measured phase's length in seconds: up to its end, or to the last drained answer. */
  measuredSeconds(): number {
    const end = Math.max(this.measureUntil, this.lastResponseAt);
    return Math.max(0, end - this.measureFrom) / 1000;
  }

  /** p99 (µs) of the answers since the last call, in the run's measure, and their count; starts the next interval. */
  takeInterval(): { answers: number; p99Us: number } {
    const answers = this.interval.totalCount;
    const p99Us = answers > 0 ? this.interval.getValueAtPercentile(99) : 0;
    this.interval.reset();
    return { answers, p99Us };
  }

  /** The seconds of the measured phase; the last one's `spanS` says how much of a second it covered. */
  timeline(): Second[] {
    const out: Second[] = [];
    const measuredS = this.measuredSeconds();
    this.seconds.forEach((s, i) => {
      const spanS = Math.round(Math.min(1, Math.max(0.001, measuredS - i)) * 1000) / 1000;
      const generator = {
        ...(s.busyPct !== undefined ? { busyPct: s.busyPct } : {}),
        ...(s.loopDelayUs !== undefined ? { loopDelayUs: s.loopDelayUs } : {}),
        ...(s.lateSlots !== undefined ? { lateSlots: s.lateSlots } : {}),
      };
      out.push({ s: i, spanS, responses: s.responses, non2xx: s.non2xx, errors: s.errors, timeouts: s.timeouts, latency: encode(s.latency), ...generator });
    });
    return out;
  }

  encodedByClass(): Partial<Record<StatusClass, string>> {
    return this.all.encodedByClass();
  }

  /** Each request kind's counts and histograms, as a result carries them. */
  endpoints(): Partial<Record<RequestKind, EndpointResult>> {
    const out: Partial<Record<RequestKind, EndpointResult>> = {};
    for (const [kind, b] of [...this.kinds].sort(([a], [b]) => a.localeCompare(b))) {
      out[kind] = {
        warmup: b.warmup,
        measured: b.measured,
        latency: { unit: 'us', byClass: b.encodedByClass(), corrected: b.corrected ? encode(b.corrected) : null },
      };
    }
    return out;
  }

  destroy(): void {
    this.all.destroy();
    for (const b of this.kinds.values()) b.destroy();
    for (const s of this.seconds) s.latency.destroy();
    this.interval.destroy();
  }

  /** The bucket of `now`; answers drained after the end go into the last whole second. */
  private second(now: number): LiveSecond {
    const last = Math.max(0, Math.ceil((this.measureUntil - this.measureFrom) / 1000) - 1);
    const i = Math.min(Math.max(0, Math.floor((now - this.measureFrom) / 1000)), last);
    while (this.seconds.length <= i) this.seconds.push({ responses: 0, non2xx: 0, errors: 0, timeouts: 0, latency: newHistogram() });
    return this.seconds[i]!;
  }
}
