/**
 * The load engine: autocannon, driven programmatically, with one *conversation* per connection.
 *
 * autocannon resets a request's `context` every time its `requests` array wraps, so per-connection
 * state cannot live there. Each connection instead gets its own conversation object in
 * `setupClient(client)`, and a one-element `requests` array whose `setupRequest` asks the
 * conversation what to send next and whose `onResponse` hands it the answer. The chain's token
 * lives in that closure and survives every wrap.
 *
 * Latency is not taken from autocannon's result (whole milliseconds, 2xx only): each client's
 * `response` event carries the fractional response time, recorded in microseconds for every status.
 *
 * The run stops by itself: at the end of the measured phase every connection is told to send
 * nothing more (its `responseMax` is set to what it has sent), so answers still in flight are read
 * and no rotation is lost half-way; a watchdog stops autocannon if a target never answers.
 */
import autocannon from 'autocannon';
import { Recorder, type Outcome } from './recorder.js';

export interface LoadRequest {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** Complete header set, `host` included (the real host name: the socket goes to its address). */
  readonly headers: Record<string, string>;
  readonly body?: string;
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
  /** True once the conversation cannot go on (its chain broke or lost its token): the connection closes. */
  readonly ended: boolean;
  /** The next request to send; called synchronously right before it is written. */
  next(): LoadRequest;
  /** The answer to the last request sent. A `broken` outcome ends the connection. */
  answer(status: number, body: string): Outcome;
  /** The request in flight got no answer (timeout or socket error): the chain may be stale. */
  lost(): void;
}

export interface Progress {
  readonly elapsedS: number;
  readonly phase: 'warmup' | 'measured';
  /** Answers in the last second (either phase). */
  readonly perSecond: number;
  readonly failures: number;
  readonly broken: number;
  /** p99 of the measured phase so far (µs); 0 before it starts. */
  readonly p99Us: number;
}

export interface EngineOptions {
  /** Where sockets go: `http://127.0.0.1:PORT` (a `*.localhost` name already resolved). */
  readonly connectUrl: string;
  /** TLS server name when `connectUrl` is an address and the target is https. */
  readonly servername?: string | undefined;
  readonly connections: number;
  readonly warmupMs: number;
  readonly durationMs: number;
  /** Overall fixed rate (req/s), or undefined for the closed model (as fast as answers come). */
  readonly rate: number | undefined;
  readonly timeoutMs: number;
  readonly conversation: (index: number, tally: Tally) => Conversation;
  readonly onProgress?: ((p: Progress) => void) | undefined;
  /** Ends the run early (Ctrl-C): answers in flight are still read, then it stops. */
  readonly signal?: AbortSignal | undefined;
}

export interface EngineResult {
  readonly recorder: Recorder;
  readonly conversations: readonly Conversation[];
  /** Connections actually opened (autocannon lowers it when the rate is below the connection count). */
  readonly connections: number;
  readonly startedAt: Date;
  readonly finishedAt: Date;
}

/** The parts of autocannon's Client the engine uses beyond its typings. */
interface AcClient extends autocannon.Client {
  reqsMade: number;
  responseMax: number | undefined;
  destroyed: boolean;
  rate: number | undefined;
}

export async function runEngine(options: EngineOptions): Promise<EngineResult> {
  const startedAt = Date.now();
  const recorder = new Recorder({ startedAt, warmupMs: options.warmupMs, durationMs: options.durationMs, fixedRate: options.rate !== undefined });
  const conversations: Conversation[] = [];
  const clients: AcClient[] = [];
  const endAt = startedAt + options.warmupMs + options.durationMs;

  const setupClient = (raw: autocannon.Client): void => {
    const client = raw as AcClient;
    const index = clients.length;
    const tally: Tally = {
      rotation: () => recorder.rotation(Date.now()),
      note: (name) => recorder.note(recorder.phaseAt(Date.now()), name),
    };
    const conv = options.conversation(index, tally);
    conversations.push(conv);
    clients.push(client);
    // In fixed-rate mode each connection is meant to send `rate` requests a second.
    const expectedIntervalUs = client.rate ? 1_000_000 / client.rate : undefined;
    client.setRequests([
      {
        // `req` is a fresh object autocannon built for this request: filling it in is cheaper than a copy.
        setupRequest: (req) => {
          const next = conv.next();
          req.method = next.method;
          req.path = next.path;
          req.headers = next.headers;
          req.body = next.body;
          return req;
        },
        onResponse: (status, body) => {
          const now = Date.now();
          const outcome = conv.answer(status, body);
          recorder.outcome(outcome, now, conv, status);
          if (outcome.kind === 'broken' || conv.ended) finish(client);
        },
      },
    ]);
    client.on('response', (status: number, _bytes: number, ms: number) => recorder.response(status, ms, Date.now(), expectedIntervalUs));
    // `timeout` and `connError` are emitted by autocannon's Client but missing from its typings.
    const events = client as NodeJS.EventEmitter;
    events.on('timeout', () => {
      recorder.timeout(Date.now());
      conv.lost();
    });
    events.on('connError', (error: unknown) => {
      const code = (error as { code?: unknown })?.code;
      recorder.error(typeof code === 'string' ? code : 'socket error', Date.now());
      conv.lost();
    });
  };

  const timers: NodeJS.Timeout[] = [];
  let lastTotal = 0;
  const progress = setInterval(() => {
    const now = Date.now();
    const total = recorder.warmup.responses + recorder.measured.responses;
    const w = recorder.warmup;
    const m = recorder.measured;
    options.onProgress?.({
      elapsedS: Math.round((now - startedAt) / 1000),
      phase: recorder.phaseAt(now),
      perSecond: total - lastTotal,
      failures: w.errors + w.timeouts + w.non2xx + w.malformed + m.errors + m.timeouts + m.non2xx + m.malformed,
      broken: w.broken + w.lost + m.broken + m.lost,
      p99Us: recorder.all.totalCount > 0 ? recorder.all.getValueAtPercentile(99) : 0,
    });
    lastTotal = total;
  }, 1000);
  timers.push(progress);

  await new Promise<void>((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.connectUrl,
        connections: options.connections,
        // autocannon's own end is only a backstop: tack drains at `endAt` and stops by the watchdog.
        duration: (options.warmupMs + options.durationMs + options.timeoutMs) / 1000 + 5,
        timeout: Math.max(1, Math.ceil(options.timeoutMs / 1000)),
        ...(options.rate !== undefined ? { overallRate: options.rate } : {}),
        ...(options.servername !== undefined ? { servername: options.servername } : {}),
        setupClient,
        // How often autocannon looks whether every connection has finished.
        sampleInt: 100,
        skipAggregateResult: true,
      } as autocannon.Options,
      (error) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve()),
    );
    let draining = false;
    const drain = () => {
      if (draining) return;
      draining = true;
      recorder.measureUntil = Math.max(recorder.measureFrom, Date.now());
      for (const client of clients) finish(client);
      // A target that never answers: autocannon's timeout reconnects, and the drained client stops.
      timers.push(setTimeout(() => instance.stop(), options.timeoutMs + 2000));
    };
    timers.push(setTimeout(drain, Math.max(0, endAt - Date.now())));
    if (options.signal) {
      if (options.signal.aborted) drain();
      else options.signal.addEventListener('abort', drain, { once: true });
    }
  }).finally(() => {
    for (const t of timers) clearTimeout(t);
    clearInterval(progress);
    // Every connection ended early (every chain broke): the measured phase ends here.
    const now = Date.now();
    if (now < recorder.measureUntil) recorder.measureUntil = Math.max(recorder.measureFrom, now);
  });
  return { recorder, conversations, connections: clients.length, startedAt: new Date(startedAt), finishedAt: new Date() };
}

/** Lets the request in flight finish, then closes the connection (no new request is sent). */
function finish(client: AcClient): void {
  if (client.destroyed) return;
  client.responseMax = Math.max(1, client.reqsMade);
}
