/**
 * The load engine: one *driver* per connection, each following one conversation (usually one token
 * chain), over one undici connection pool per origin.
 *
 * A conversation says what to send next (`next()`, which names the origin: the sign-in server or the
 * tenant host) and judges each answer (`answer()`). A driver has at most one request in flight, so a
 * chain's rotated token is always stored before it is used; the pools hold at most one connection
 * per driver per origin, so a profile that talks to two hosts (exchange-search) works when they are
 * different hosts, ports or schemes, as in production. The one exception is a race probe
 * (`LoadRequest.together`): the same request sent twice at once, each copy on a connection of its
 * own (`extraConnections`), its driver waiting for both answers.
 *
 * Two models:
 * - closed (no rate): each driver sends its next request when its answer arrives;
 * - open (`rate`): request slots fall due at a fixed rate, slot k at `start + k / rate`, and go to
 *   whichever driver is idle. When every driver is busy, due slots wait, and the one that goes out
 *   later is measured from when it was due (the coordinated-omission-corrected histogram), which is
 *   the latency an open-model client would have seen. (A slot handed to an idle driver by the timer
 *   a little late, timers being millisecond-coarse, is measured from when it was sent: that delay is
 *   tack's, not the target's.) Slots still waiting at the end were never sent: `slots.due -
 *   slots.sent` tells how far the connections fell behind the rate.
 *
 * Latency is taken by the engine itself (`performance.now()` around each request, whole answer
 * read), recorded in microseconds for every status, for the whole run and per request kind.
 *
 * The engine also watches itself (generator.ts): its CPU, its event loop's busy share and delay, and
 * in the open model the slots it sent late while a connection was free (the generator's lateness,
 * not the target's).
 *
 * The run stops by itself: at the end of the measured phase no driver sends again, answers in flight
 * are read (so no rotation is lost half-way), then the pools close; a watchdog destroys them if a
 * target never answers (every request also has its own timeout).
 */
import { Pool, type Dispatcher } from 'undici';
import { GeneratorProbe, LATE_SLOT_MS } from './generator.js';
import { Recorder, type AnswerOutcome } from './recorder.js';
import type { Endpoint } from './target.js';
import type { GeneratorHealth, RequestKind } from '../types.js';

export interface LoadRequest {
  /** What it is for: results are kept per kind too. */
  readonly kind: RequestKind;
  /** Where it goes: one pool per origin (`origin.connectUrl`). */
  readonly origin: Endpoint;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** Complete header set, `host` included (the real host name: the socket goes to its address). */
  readonly headers: Record<string, string>;
  readonly body?: string | undefined;
  /**
   * A race probe: the same request sent this many times at the same moment, each on its own
   * connection; each answer goes to `answer()` in the order they arrive, and the conversation's
   * next request waits for all of them.
   */
  readonly together?: number | undefined;
}

/** Counters a conversation may bump. */
export interface Tally {
  rotation(): void;
  note(name: string): void;
}

/** One connection's client: usually one token chain. */
export interface Conversation {
  /** Printed when the chain breaks: its number and test user, never a token. */
  readonly label: string;
  readonly rotations: number;
  /** True once the conversation cannot go on (its chain broke or lost its token): its driver stops. */
  readonly ended: boolean;
  /** The next request to send; called synchronously right before it is sent. */
  next(): LoadRequest;
  /** The answer to the last request sent (`retryAfter`: it carried a Retry-After header). A `broken` outcome ends the driver. */
  answer(status: number, body: string, retryAfter?: boolean): AnswerOutcome;
  /** The request in flight got no answer (timeout or socket error): the chain may be stale. */
  lost(): void;
}

export interface Progress {
  /** Seconds since the start when this line's interval ended. */
  readonly elapsedS: number;
  /** How long the interval was: a second, or less for the last, partial one (`final`). */
  readonly spanS: number;
  readonly final: boolean;
  readonly phase: 'warmup' | 'measured';
  /** Answers per second over the interval (either phase). */
  readonly perSecond: number;
  readonly failures: number;
  readonly broken: number;
  /** p99 (µs) of the interval's answers, in the run's measure (as the per-second chart); 0 when none. */
  readonly p99Us: number;
  /** The generator's event loop: busy share over the interval (%). */
  readonly busyPct: number;
}

export interface EngineOptions {
  /** Drivers (conversations), and the most connections any one origin's pool opens. */
  readonly connections: number;
  readonly warmupMs: number;
  readonly durationMs: number;
  /** Overall rate (req/s) of the open model, or undefined for the closed model (as fast as answers come). */
  readonly rate: number | undefined;
  readonly timeoutMs: number;
  /** Accept self-signed certificates (TACK_INSECURE_TLS). */
  readonly insecureTls?: boolean | undefined;
  readonly conversation: (index: number, tally: Tally) => Conversation;
  /** Connections each origin's pool may open beyond one per driver: the race probes' second copies. */
  readonly extraConnections?: number | undefined;
  readonly onProgress?: ((p: Progress) => void) | undefined;
  /** Called once, as the run starts, with its recorder: for outputs that read the figures while the run lasts (src/load/outputs/). */
  readonly onStart?: ((recorder: Recorder) => void) | undefined;
  /** Ends the run early (Ctrl-C): answers in flight are still read, then it stops. */
  readonly signal?: AbortSignal | undefined;
  /**
   * Asked once a second with what was recorded so far: a reason ends the run early as Ctrl-C does
   * (answers in flight read, then it stops), and is handed back as `stoppedBy` (a threshold marked
   * `:abort`, ../results/early-stop.ts).
   */
  readonly stopWhen?: ((recorder: Recorder, now: number) => string | undefined) | undefined;
}

export interface EngineResult {
  readonly recorder: Recorder;
  readonly conversations: readonly Conversation[];
  /** Drivers that ran. */
  readonly connections: number;
  /** Open model only: slots that fell due and slots actually sent (fewer when every connection was busy). */
  readonly slots: { readonly due: number; readonly sent: number } | null;
  readonly startedAt: Date;
  readonly finishedAt: Date;
  /** The load generator's health over the measured phase. */
  readonly generator: GeneratorHealth;
  /** Why `stopWhen` ended the run early, if it did. */
  readonly stoppedBy?: string | undefined;
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

type Settle = (d: Driver, status: number, body: string | undefined, error: Error | undefined, retryAfter?: boolean) => void;

/** Reads one answer (status, body, whether it said Retry-After) and hands it to `deliver`; reused request after request. */
abstract class AnswerReader implements Dispatcher.DispatchHandler {
  status = 0;
  chunks: Buffer[] = [];
  retryAfter = false;

  protected abstract deliver(status: number, body: string | undefined, error: Error | undefined, retryAfter?: boolean): void;

  onRequestStart(): void {}

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    this.status = statusCode;
    this.retryAfter = headers['retry-after'] !== undefined;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    const c = this.chunks;
    const body = c.length === 0 ? '' : c.length === 1 ? c[0]!.toString('utf8') : Buffer.concat(c).toString('utf8');
    this.chunks = [];
    this.deliver(this.status, body, undefined, this.retryAfter);
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.chunks = [];
    this.deliver(0, undefined, error);
  }
}

/** One connection's sender: its conversation, and the handler of its one request in flight (reused). */
class Driver extends AnswerReader {
  sentAt = 0;
  kind: RequestKind = 'exchange';
  /** Open model: when the slot this request serves was due. */
  dueAt = 0;
  busy = false;
  done = false;
  /** Answers still awaited of the request in flight (more than one for a race probe). */
  awaiting = 0;
  /** Consecutive transport failures: a closed-model driver backs off so a dead target is not spun on. */
  failures = 0;

  constructor(
    readonly conv: Conversation,
    private readonly settle: Settle,
  ) {
    super();
  }

  protected deliver(status: number, body: string | undefined, error: Error | undefined, retryAfter?: boolean): void {
    this.settle(this, status, body, error, retryAfter);
  }
}

/** How long a race probe's copies wait for the slowest of them to be ready before their last bytes go anyway. */
const TOGETHER_MAX_WAIT_MS = 1000;

/**
 * The bodies of a race probe's copies (last-byte synchronisation, as race testers do it): each
 * sends all but its last byte at once; when every copy has (its connection open, its headers and
 * that part written), or after TOGETHER_MAX_WAIT_MS, the last bytes go out together, so the server
 * sees the requests complete at the same moment whatever it took to open the connections.
 */
function heldTogether(body: string, copies: number): AsyncIterable<Buffer>[] {
  const bytes = Buffer.from(body, 'utf8');
  let ready = 0;
  let release!: () => void;
  const open = new Promise<void>((resolve) => {
    release = resolve;
  });
  const timer = setTimeout(() => release(), TOGETHER_MAX_WAIT_MS);
  timer.unref();
  void open.then(() => clearTimeout(timer));
  async function* held(): AsyncGenerator<Buffer> {
    if (bytes.length > 1) yield bytes.subarray(0, bytes.length - 1);
    if (++ready >= copies) release();
    await open;
    yield bytes.subarray(Math.max(0, bytes.length - 1));
  }
  return Array.from({ length: copies }, () => held());
}

/** The extra copies of a race probe's request: each reads its own answer and hands it to its driver. */
class Copy extends AnswerReader {
  constructor(
    private readonly driver: Driver,
    private readonly settle: Settle,
  ) {
    super();
  }

  protected deliver(status: number, body: string | undefined, error: Error | undefined, retryAfter?: boolean): void {
    this.settle(this.driver, status, body, error, retryAfter);
  }
}

export async function runEngine(options: EngineOptions): Promise<EngineResult> {
  const wallStart = new Date();
  const t0 = performance.now();
  const recorder = new Recorder({ startedAt: t0, warmupMs: options.warmupMs, durationMs: options.durationMs, fixedRate: options.rate !== undefined });
  const probe = new GeneratorProbe();
  options.onStart?.(recorder);
  const endAt = t0 + options.warmupMs + options.durationMs;
  const pools = new Map<string, Pool>();
  const drivers: Driver[] = [];
  const idle: Driver[] = [];
  const rate = options.rate;
  const interval = rate !== undefined ? 1000 / rate : 0;
  let nextSlot = 0;
  let inFlight = 0;
  let draining = false;
  let stopped = false;
  let pumpTimer: NodeJS.Timeout | undefined;
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (finish = resolve));

  const poolFor = (origin: Endpoint) => {
    let pool = pools.get(origin.connectUrl);
    if (!pool) {
      pool = new Pool(origin.connectUrl, {
        connections: options.connections + (options.extraConnections ?? 0),
        pipelining: 1,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
        connect: {
          timeout: options.timeoutMs,
          rejectUnauthorized: !options.insecureTls,
          ...(origin.servername !== undefined ? { servername: origin.servername } : {}),
        },
      });
      pools.set(origin.connectUrl, pool);
    }
    return pool;
  };

  const send = (d: Driver, dueAt: number) => {
    const req = d.conv.next();
    d.kind = req.kind;
    d.busy = true;
    d.dueAt = dueAt;
    const copies = Math.max(1, req.together ?? 1);
    d.awaiting = copies;
    inFlight += copies;
    d.sentAt = performance.now();
    const pool = poolFor(req.origin);
    if (copies === 1) {
      pool.dispatch({ method: req.method, path: req.path, headers: req.headers, body: req.body ?? null }, d);
      return;
    }
    // A race probe: every copy on a connection of its own, their last bytes sent together.
    recorder.raceProbe(d.sentAt, req.kind);
    const bodies = heldTogether(req.body ?? '', copies);
    const headers = { ...req.headers, 'content-length': String(Buffer.byteLength(req.body ?? '')) };
    for (let i = 0; i < copies; i++) {
      // undici sends an async iterable body chunk by chunk (its types list only streams).
      const body = bodies[i] as unknown as Dispatcher.DispatchOptions['body'];
      pool.dispatch({ method: req.method, path: req.path, headers, body }, i === 0 ? d : new Copy(d, settle));
    }
  };

  const dueCount = (now: number) => (now < t0 ? 0 : Math.floor((Math.min(now, endAt) - t0) / interval) + 1);

  /** Open model: hands due slots to idle drivers, and wakes up when the next one falls due. */
  const pump = () => {
    pumpTimer = undefined;
    if (draining) return;
    const due = dueCount(performance.now());
    while (nextSlot < due && idle.length > 0) {
      const now = performance.now();
      // A connection was free: a slot going out well after it fell due is the generator's lateness.
      if (now - (t0 + nextSlot * interval) >= LATE_SLOT_MS) recorder.late(now);
      nextSlot++;
      send(idle.pop()!, now);
    }
    if (idle.length > 0) pumpTimer = setTimeout(pump, Math.max(1, t0 + nextSlot * interval - performance.now()));
  };

  /** A driver is free again: closed model, it sends at once; open model, it takes a waiting slot or goes idle. */
  const resume = (d: Driver) => {
    if (draining || d.conv.ended) {
      d.done = true;
      if (inFlight === 0 && (draining || drivers.every((x) => x.done))) finish();
      return;
    }
    if (rate === undefined) {
      if (d.failures === 0) send(d, 0);
      else setTimeout(() => (draining ? resume(d) : send(d, performance.now())), Math.min(1000, 25 * 2 ** Math.min(d.failures, 6))).unref();
      return;
    }
    const now = performance.now();
    if (nextSlot < dueCount(now)) {
      // The slot waited because every driver was busy: it counts from when it fell due.
      const dueAt = idle.length === 0 ? t0 + nextSlot * interval : now;
      if (idle.length > 0 && now - (t0 + nextSlot * interval) >= LATE_SLOT_MS) recorder.late(now);
      nextSlot++;
      send(d, dueAt);
    } else {
      idle.push(d);
      pumpTimer ??= setTimeout(pump, Math.max(1, t0 + nextSlot * interval - performance.now()));
    }
  };

  const settle = (d: Driver, status: number, body: string | undefined, error: Error | undefined, retryAfter = false) => {
    if (stopped) return;
    const now = performance.now();
    inFlight--;
    d.awaiting--;
    if (error === undefined) {
      d.failures = 0;
      recorder.response(status, now - d.sentAt, now, rate !== undefined ? now - d.dueAt : undefined, d.kind);
      answering = d.kind;
      const outcome = d.conv.answer(status, body!, retryAfter);
      answering = undefined;
      recorder.outcome(outcome, now, d.conv, status, d.kind);
    } else {
      d.failures++;
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && TIMEOUT_CODES.has(code)) recorder.timeout(now, d.kind);
      else recorder.error(typeof code === 'string' ? code : error.name || 'socket error', now, d.kind);
      d.conv.lost();
    }
    // A race probe's next request waits for every copy's answer.
    if (d.awaiting > 0) return;
    d.busy = false;
    resume(d);
  };

  /** The kind of the answer being judged: a rotation or a note the conversation counts belongs to it. */
  let answering: RequestKind | undefined;
  const tally: Tally = {
    rotation: () => recorder.rotation(performance.now(), answering),
    note: (name) => recorder.note(recorder.phaseAt(performance.now()), name, answering),
  };
  for (let i = 0; i < options.connections; i++) drivers.push(new Driver(options.conversation(i, tally), settle));

  let lastTotal = 0;
  let lastTick = t0;
  let stoppedBy: string | undefined;
  /** One progress line: the interval since the previous one (a second, or the last, partial one). */
  const tick = (final: boolean) => {
    const now = performance.now();
    const spanMs = now - lastTick;
    const w = recorder.warmup;
    const m = recorder.measured;
    const total = w.responses + m.responses;
    const { p99Us } = recorder.takeInterval();
    const gen = probe.second();
    recorder.generatorSecond(now, spanMs, gen);
    options.onProgress?.({
      elapsedS: final ? Math.round(now - t0) / 1000 : Math.round((now - t0) / 1000),
      spanS: Math.round(spanMs) / 1000,
      final,
      phase: recorder.phaseAt(lastTick + spanMs / 2),
      perSecond: (total - lastTotal) / Math.max(0.001, spanMs / 1000),
      failures: w.errors + w.timeouts + w.non2xx + w.malformed + m.errors + m.timeouts + m.non2xx + m.malformed + (w.forks ?? 0) + (m.forks ?? 0),
      broken: w.broken + w.lost + m.broken + m.lost,
      p99Us,
      busyPct: gen.busyPct,
    });
    lastTotal = total;
    lastTick = now;
    if (!final && !draining && stoppedBy === undefined && options.stopWhen) {
      stoppedBy = options.stopWhen(recorder, now);
      if (stoppedBy !== undefined) drain();
    }
  };
  const progress = setInterval(() => tick(false), 1000);
  // The generator is judged over the measured phase.
  const beginProbe = setTimeout(() => probe.begin(), Math.max(0, recorder.measureFrom - performance.now()));

  let watchdog: NodeJS.Timeout | undefined;
  const drain = () => {
    if (draining) return;
    draining = true;
    if (pumpTimer) clearTimeout(pumpTimer);
    recorder.measureUntil = Math.max(recorder.measureFrom, Math.min(performance.now(), endAt));
    for (const d of drivers) if (!d.busy) d.done = true;
    if (inFlight === 0) finish();
    // Every request has its own timeout; this only guards against one that never fires.
    watchdog = setTimeout(finish, options.timeoutMs + 2000);
  };
  const endTimer = setTimeout(drain, Math.max(0, endAt - performance.now()));
  const onAbort = () => drain();
  if (options.signal?.aborted) drain();
  else options.signal?.addEventListener('abort', onAbort, { once: true });

  let generator: GeneratorHealth | undefined;
  try {
    // A conversation may have ended before the run (its chain broke in an earlier capacity step).
    for (const d of drivers) d.done = d.conv.ended;
    const live = drivers.filter((d) => !d.done);
    if (live.length === 0) finish();
    else if (!draining) {
      if (rate === undefined) for (const d of live) send(d, performance.now());
      else {
        idle.push(...[...live].reverse());
        pump();
      }
    }
    await finished;
  } finally {
    stopped = true;
    clearTimeout(endTimer);
    if (watchdog) clearTimeout(watchdog);
    if (pumpTimer) clearTimeout(pumpTimer);
    clearInterval(progress);
    clearTimeout(beginProbe);
    options.signal?.removeEventListener('abort', onAbort);
    // Every driver ended early (every chain broke): the measured phase ends here.
    const now = performance.now();
    if (now < recorder.measureUntil) recorder.measureUntil = Math.max(recorder.measureFrom, now);
    // The last, partial second is shown as it was (a sliver of drain time is not a second of its own).
    if (now - lastTick >= 100) tick(true);
    // Always: the probe's monitors stop here.
    generator = probe.end(rate !== undefined ? { slots: recorder.lateSlots, answers: recorder.measured.responses } : null);
    await Promise.all([...pools.values()].map((p) => p.destroy().catch(() => undefined)));
  }
  const due = rate !== undefined ? dueCount(recorder.measureUntil) : 0;
  return {
    recorder,
    conversations: drivers.map((d) => d.conv),
    connections: drivers.length,
    slots: rate !== undefined ? { due: Math.max(due, nextSlot), sent: nextSlot } : null,
    startedAt: wallStart,
    finishedAt: new Date(),
    generator,
    ...(stoppedBy !== undefined ? { stoppedBy } : {}),
  };
}
