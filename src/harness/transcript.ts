/**
 * Every HTTP exchange tack makes, in order, tagged with the test (and so the rules) it served.
 * Held raw in memory during a run; `redacted()` is the only way out, so every writer redacts.
 */
import type { Redactor } from './redactor.js';

interface ExchangeRequest {
  readonly method: string;
  readonly url: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** Sent together with others (together.ts): their batch. */
  readonly gate?: { readonly batch: number };
}

export interface Exchange {
  readonly seq: number;
  test: string | undefined;
  readonly startedAt: string;
  request: { method: string; url: string; headers: Record<string, string>; body: string | undefined };
  response?: { status: number; headers: Record<string, string>; body: string };
  error?: { code: string; message: string };
  durationMs?: number;
  /** A 429, or a 503 with Retry-After, that tack honoured: it waited `waitMs` and sent the request again (politeness.ts). */
  retried?: { waitMs: number };
  /** The batch of requests this one was sent at the same moment with (together.ts). */
  together?: number;
}

/** An exchange that got an answer, as the tests judging a run's traffic read it. */
interface AnsweredExchange {
  readonly seq: number;
  readonly test: string | undefined;
  readonly method: string;
  readonly url: string;
  readonly response: { readonly status: number; readonly headers: Record<string, string>; readonly body: string };
  /** The target asked tack to wait and send it again (429, 503 with Retry-After), and tack did: not the answer the request got. */
  readonly retried: boolean;
}

export class Transcript {
  private readonly exchanges: Exchange[] = [];
  private currentTest: string | undefined;
  /** Upper bound kept in memory; older bodies are dropped first (long load runs never record). */
  private readonly maxEntries: number;

  constructor(options: { maxEntries?: number; now?: () => Date } = {}) {
    this.maxEntries = options.maxEntries ?? 50_000;
    this.now = options.now ?? (() => new Date());
  }

  private readonly now: () => Date;
  private sent = 0;

  /** The runner says which test the following exchanges serve. */
  setTest(test: string | undefined): void {
    this.currentTest = test;
  }

  /** Records a request; `at` is when it was sent (default: now; `tack client` records what a client sent earlier). */
  begin(req: ExchangeRequest, at?: Date): number {
    this.sent++;
    const seq = this.exchanges.length + 1;
    if (this.exchanges.length < this.maxEntries) {
      this.exchanges.push({
        seq,
        test: this.currentTest,
        startedAt: (at ?? this.now()).toISOString(),
        request: { method: req.method, url: req.url, headers: { ...(req.headers ?? {}) }, body: req.body },
        ...(req.gate === undefined ? {} : { together: req.gate.batch }),
      });
    }
    return seq;
  }

  end(seq: number, response: { status: number; headers: Record<string, string>; body: string }, ms: number): void {
    const entry = this.exchanges[seq - 1];
    if (!entry) return;
    entry.response = response;
    entry.durationMs = Math.round(ms * 1000) / 1000;
  }

  fail(seq: number, error: { code: string; message: string }, ms: number): void {
    const entry = this.exchanges[seq - 1];
    if (!entry) return;
    entry.error = error;
    entry.durationMs = Math.round(ms * 1000) / 1000;
  }

  /** The answer of `seq` asked tack to wait and send the request again, and tack did (HttpClient.send). */
  retried(seq: number, waitMs: number): void {
    const entry = this.exchanges[seq - 1];
    if (entry) entry.retried = { waitMs: Math.round(waitMs) };
  }

  /** Sequence numbers recorded so far for one test. */
  seqsOf(test: string): number[] {
    return this.exchanges.filter((e) => e.test === test).map((e) => e.seq);
  }

  get size(): number {
    return this.exchanges.length;
  }

  /** How many exchanges were made past the upper bound, and so are not kept. */
  get notKept(): number {
    return this.sent - this.exchanges.length;
  }

  /**
   * The exchanges answered so far, raw, in order: for the tests that judge the whole run's traffic
   * (every answer a status, every search answer a shape). They record through the redactor like
   * every test.
   */
  answered(): readonly AnsweredExchange[] {
    return this.exchanges.flatMap((e) =>
      e.response === undefined
        ? []
        : [{ seq: e.seq, test: e.test, method: e.request.method, url: e.request.url, response: e.response, retried: e.retried !== undefined }],
    );
  }

  /** The whole transcript, redacted: the only way exchanges leave memory. */
  redacted(redactor: Redactor): Exchange[] {
    return this.exchanges.map((e) => redactExchange(e, redactor));
  }

  get(seq: number, redactor: Redactor): Exchange | undefined {
    const e = this.exchanges[seq - 1];
    return e ? redactExchange(e, redactor) : undefined;
  }
}

export function redactExchange(e: Exchange, redactor: Redactor): Exchange {
  const reqType = findHeader(e.request.headers, 'content-type');
  const out: Exchange = {
    seq: e.seq,
    test: e.test,
    startedAt: e.startedAt,
    request: {
      method: e.request.method,
      url: redactor.redact(e.request.url),
      headers: redactor.redactHeaders(e.request.headers),
      body: e.request.body === undefined ? undefined : redactor.redactBody(e.request.body, reqType),
    },
  };
  if (e.response) {
    out.response = {
      status: e.response.status,
      headers: redactor.redactHeaders(e.response.headers),
      body: redactor.redactBody(e.response.body, e.response.headers['content-type']),
    };
  }
  if (e.error) out.error = { code: e.error.code, message: redactor.redact(e.error.message) };
  if (e.durationMs !== undefined) out.durationMs = e.durationMs;
  if (e.retried !== undefined) out.retried = { ...e.retried };
  if (e.together !== undefined) out.together = e.together;
  return out;
}

function findHeader(headers: Record<string, string>, name: string): string | undefined {
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
  return undefined;
}
