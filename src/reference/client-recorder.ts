/**
 * The recorder of `tack client` ("tests can read back the requests the server received", as
 * mock-oauth2-server offers): every request a listener receives, in arrival order, with the role of
 * that listener, its method, target, headers as sent, body, and the answer it got.
 *
 * The record is raw: it holds every token and secret the client sent or received. Whoever reads it
 * redacts before anything leaves memory (src/client does, through the one redactor).
 *
 * Bounded: at most `maxPerRun` exchanges are kept per run of the client; past that the rest are
 * counted, not kept, and `onOverflow` is told once so the caller can cut the flooding client off.
 * Bodies are read through `readBodyBytes` (64 KiB at most), which the handler's `readBody` shares.
 * A body sent with `Content-Encoding: gzip`, `deflate` or `br` is kept decoded (at most 1 MiB), as
 * the checks must read it: a token compressed is still sent.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { readBodyBytes } from './body.js';

/** Longest response body kept (an HTML page is cut). */
const MAX_RESPONSE_BODY = 64 * 1024;

interface RecordedRequest {
  readonly method: string;
  /** The request target as sent: path and query. */
  readonly target: string;
  /** Header lines as sent, names in their own letter case, in order. */
  readonly headers: readonly (readonly [string, string])[];
  /** The body, decoded from its `Content-Encoding`; undefined until read, or when it could not be read (see `bodyProblem`). */
  body: string | undefined;
  bodyProblem: string | undefined;
}

interface RecordedResponse {
  readonly status: number;
  /** Header names lower-case. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface RecordedExchange {
  readonly seq: number;
  /** The run of the client the request arrived during (`ClientRecorder.run` at that moment). */
  readonly run: number;
  /** The role of the listener it arrived at: `tenant:<name>`, `identity` or `host` (routed by Host). */
  readonly role: string;
  /** Real time, ms since the epoch. */
  readonly receivedAt: number;
  answeredAt: number | undefined;
  readonly request: RecordedRequest;
  response: RecordedResponse | undefined;
}

interface RecorderOptions {
  /** Exchanges kept per run at most (default 200). */
  readonly maxPerRun?: number;
  /** Called once per run when a request past `maxPerRun` arrives. */
  readonly onOverflow?: (run: number) => void;
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

export class ClientRecorder {
  /** The run the next requests belong to; the caller moves it between runs of the client. */
  run = 0;
  readonly exchanges: RecordedExchange[] = [];
  readonly maxPerRun: number;
  readonly #counts = new Map<number, number>();
  readonly #onOverflow: ((run: number) => void) | undefined;

  constructor(options: RecorderOptions = {}) {
    this.maxPerRun = options.maxPerRun ?? 200;
    this.#onOverflow = options.onOverflow;
  }

  /** Requests that arrived during `run` (kept or not). */
  countOf(run: number): number {
    return this.#counts.get(run) ?? 0;
  }

  /** Wraps a listener so that every request it serves is recorded under `role`. */
  wrap(role: string, inner: Listener): Listener {
    return (req, res) => {
      this.#record(role, req, res);
      inner(req, res);
    };
  }

  #record(role: string, req: IncomingMessage, res: ServerResponse): void {
    const run = this.run;
    const count = this.countOf(run) + 1;
    this.#counts.set(run, count);
    if (count > this.maxPerRun) {
      if (count === this.maxPerRun + 1) this.#onOverflow?.(run);
      return;
    }
    const headers: [string, string][] = [];
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
    const request: RecordedRequest = { method: req.method ?? '', target: req.url ?? '', headers, body: undefined, bodyProblem: undefined };
    const entry: RecordedExchange = { seq: this.exchanges.length + 1, run, role, receivedAt: Date.now(), answeredAt: undefined, request, response: undefined };
    this.exchanges.push(entry);
    readBodyBytes(req).then(
      (bytes) => (request.body = decoded(bytes, req.headers['content-encoding'])),
      (error: unknown) => (request.bodyProblem = error instanceof Error ? error.message : String(error)),
    );
    captureResponse(res, (response) => {
      entry.response = response;
      entry.answeredAt = Date.now();
    });
  }
}

/** Longest decoded body kept: a compressed body may expand far past the 64 KiB read. */
const MAX_DECODED_BODY = 1024 * 1024;

/**
 * The body as text, decoded from `encoding` (gzip, deflate in either framing, br; a list is undone
 * from its last); as it came when it names another encoding or does not decode.
 */
export function decoded(bytes: Buffer, encoding: string | undefined): string {
  let out = bytes;
  const codings = (encoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity')
    .reverse();
  try {
    for (const coding of codings) {
      const options = { maxOutputLength: MAX_DECODED_BODY };
      if (coding === 'gzip' || coding === 'x-gzip') out = gunzipSync(out, options);
      else if (coding === 'br') out = brotliDecompressSync(out, options);
      else if (coding === 'deflate') out = out[0] !== undefined && (out[0] & 0x0f) === 8 ? inflateSync(out, options) : inflateRawSync(out, options);
      else return bytes.toString('utf8');
    }
  } catch {
    return bytes.toString('utf8');
  }
  return out.toString('utf8');
}

/** Watches what is written to `res` and reports it when the response is complete. */
function captureResponse(res: ServerResponse, done: (response: RecordedResponse) => void): void {
  let written: Record<string, string> = {};
  let body = '';
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  (res as { writeHead: unknown }).writeHead = (...args: unknown[]) => {
    const headers = args.find((a, i) => i > 0 && typeof a === 'object' && a !== null);
    if (headers !== undefined) written = lowerCased(headers as Record<string, unknown>);
    return writeHead(...args);
  };
  (res as { end: unknown }).end = (...args: unknown[]) => {
    const chunk = args[0];
    if (typeof chunk === 'string' || Buffer.isBuffer(chunk)) body = chunk.toString().slice(0, MAX_RESPONSE_BODY);
    return end(...args);
  };
  res.on('finish', () => done({ status: res.statusCode, headers: { ...lowerCased(res.getHeaders()), ...written }, body }));
}

function lowerCased(headers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}
