/**
 * The one HTTP client tack uses to talk to a target: undici with a single dispatcher.
 *
 * - `*.localhost` (RFC 6761) resolves to loopback here, whatever the machine's resolver says.
 * - Every request has a deadline; a target that does not answer ends in a coded TackError whose
 *   message names the host and the time waited.
 * - Every exchange is recorded, raw, in the transcript; output paths redact it when they write.
 * - Every token found in a response is registered with the redactor before anyone can print it.
 * - Once a run is stopped (`stop()`), only clean-up is sent (requests marked `cleanup`: revoking
 *   the tokens tack generated); requests in flight are let finish.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { Readable } from 'node:stream';
import { Agent, errors as undiciErrors, request } from 'undici';
import { TackError } from './errors.js';
import { Politeness } from './politeness.js';
import { isSecretMember, type Redactor } from './redactor.js';
import { heldBody, type SendGate } from './together.js';
import type { Transcript } from './transcript.js';

export interface HttpRequest {
  readonly method: string;
  readonly url: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** What the request is for, shown in errors ("identity server"). */
  readonly role?: string;
  /** Clean-up (revoking what tack generated): sent even once the run is stopped. */
  readonly cleanup?: boolean;
  /** Sent together with other requests (together.ts): the body's last byte waits for the gate. */
  readonly gate?: SendGate;
}

export interface HttpResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly text: string;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  readonly json: unknown;
  readonly ms: number;
  /** Transcript sequence number. */
  readonly seq: number;
}

interface HttpOptions {
  readonly timeoutMs: number;
  readonly insecureTls: boolean;
  readonly redactor: Redactor;
  readonly transcript: Transcript;
  /** Largest response body read, in bytes; the rest is cut. */
  readonly maxBodyBytes?: number;
  /** 429 / Retry-After handling and `--rate` (politeness.ts); defaults when absent. */
  readonly politeness?: Politeness;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** net.connect's `lookup`, with RFC 6761 `localhost` names answered here. */
export function localhostAwareLookup(hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback): void {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) {
    const family = options.family === 6 || options.family === 'IPv6' ? 6 : 4;
    const address = family === 6 ? '::1' : '127.0.0.1';
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
    return;
  }
  const lookup = dnsLookup as unknown as (h: string, o: object, cb: LookupCallback) => void;
  lookup(hostname, options, callback);
}

const TOKEN_FIELDS: Record<string, 'access-token' | 'refresh-token' | 'api-token'> = {
  access_token: 'access-token',
  accesstoken: 'access-token',
  refresh_token: 'refresh-token',
  refreshtoken: 'refresh-token',
  apitoken: 'api-token',
  api_token: 'api-token',
  id_token: 'access-token',
  token: 'access-token',
};

export class HttpClient {
  readonly dispatcher: Agent;
  readonly politeness: Politeness;
  private readonly options: HttpOptions;
  private stopped: TackError | undefined;
  private inFlight = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(options: HttpOptions) {
    this.options = options;
    this.politeness = options.politeness ?? new Politeness();
    this.dispatcher = new Agent({
      connect: { lookup: localhostAwareLookup as never, rejectUnauthorized: !options.insecureTls, timeout: options.timeoutMs },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 4_000,
    });
  }

  /** Sends `req`, waiting its turn under --rate and retrying after 429 as politeness.ts says. */
  async send(req: HttpRequest): Promise<HttpResponse> {
    for (let retries = 0; ; retries++) {
      this.refuseWhenStopped(req);
      await this.politeness.turn();
      this.refuseWhenStopped(req);
      const res = await this.counted(() => this.sendOnce(req));
      const decision = this.politeness.decide(res.status, res.headers, retries);
      if (decision.kind === 'answer') return res;
      if (decision.kind === 'give-up')
        throw new TackError('TACK_ERR_RATE_LIMITED', `${req.role ?? 'target'} ${originOf(req.url)} ${decision.reason} (${req.method} ${pathOf(req.url)})`);
      this.options.transcript.retried(res.seq, decision.waitMs);
      await this.politeness.sleep(decision.waitMs);
    }
  }

  private async sendOnce(req: HttpRequest): Promise<HttpResponse> {
    const { transcript } = this.options;
    const started = performance.now();
    const seq = transcript.begin(req);
    // A timer cleared when the exchange ends: AbortSignal.timeout's fires anyway, building an error each time.
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new DOMException('The exchange timed out', 'TimeoutError')), this.options.timeoutMs);
    const signal = timeout.signal;
    try {
      const res = await request(req.url, {
        method: req.method as 'GET',
        headers: req.gate === undefined ? (req.headers ?? {}) : { ...req.headers, 'content-length': String(Buffer.byteLength(req.body ?? '')) },
        // undici sends an async iterable chunk by chunk, pulling the next only once the last is written (its types omit it).
        body: req.gate === undefined ? (req.body ?? null) : (heldBody(req.body ?? '', req.gate) as unknown as Readable),
        dispatcher: this.dispatcher,
        signal,
      });
      const text = await readCapped(res.body, this.options.maxBodyBytes ?? 1 << 20).catch((error: unknown) => {
        throw Object.assign(new Error('body cut off'), { cause: error, midBody: res.statusCode });
      });
      const headers = flattenHeaders(res.headers);
      const json = parseJson(text);
      this.learnTokens(json);
      const ms = performance.now() - started;
      transcript.end(seq, { status: res.statusCode, headers, body: text }, ms);
      return { status: res.statusCode, headers, text, json, ms, seq };
    } catch (error) {
      const ms = performance.now() - started;
      const tackError = this.describe(error, req);
      transcript.fail(seq, { code: tackError.code, message: tackError.message }, ms);
      throw tackError;
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.dispatcher.close().catch(() => undefined);
  }

  /** From now on only clean-up (requests marked `cleanup`) is sent; any other request fails with `reason`. */
  stop(reason: TackError): void {
    this.stopped ??= reason;
  }

  /** Resolves once no request is in flight, or after `maxMs`. */
  async settled(maxMs: number): Promise<void> {
    if (this.inFlight === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([new Promise<void>((resolve) => this.idleWaiters.push(resolve)), new Promise<void>((resolve) => (timer = setTimeout(resolve, maxMs)))]);
    clearTimeout(timer);
  }

  private refuseWhenStopped(req: HttpRequest): void {
    if (this.stopped !== undefined && req.cleanup !== true) throw this.stopped;
  }

  private async counted<T>(work: () => Promise<T>): Promise<T> {
    this.inFlight++;
    try {
      return await work();
    } finally {
      this.inFlight--;
      if (this.inFlight === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    }
  }

  /** Registers every token of a JSON response with the redactor. */
  private learnTokens(json: unknown): void {
    if (json === null || typeof json !== 'object') return;
    const stack: unknown[] = [json];
    while (stack.length > 0) {
      const node = stack.pop();
      if (node === null || typeof node !== 'object') continue;
      for (const [key, value] of Object.entries(node)) {
        if (typeof value === 'string') {
          const kind = TOKEN_FIELDS[key.toLowerCase()];
          if (kind) this.options.redactor.register(kind, value);
          else if (/token|secret/i.test(key) && !/type|hint/i.test(key) && isSecretMember(key, value)) this.options.redactor.register('secret', value);
        } else if (typeof value === 'object') stack.push(value);
      }
    }
  }

  private describe(error: unknown, req: HttpRequest): TackError {
    const where = `${req.role ?? 'target'} ${originOf(req.url)}`;
    const seconds = `${Math.round(this.options.timeoutMs / 100) / 10} s`;
    const midBody = (error as { midBody?: number })?.midBody;
    if (midBody !== undefined) error = (error as { cause?: unknown }).cause;
    const name = (error as { name?: string })?.name;
    const code = (error as { code?: string })?.code;
    if (
      name === 'TimeoutError' ||
      name === 'AbortError' ||
      error instanceof undiciErrors.HeadersTimeoutError ||
      error instanceof undiciErrors.BodyTimeoutError ||
      code === 'UND_ERR_CONNECT_TIMEOUT'
    ) {
      return new TackError('TACK_ERR_TIMEOUT', `${where} did not answer within ${seconds} (${req.method} ${pathOf(req.url)})`, { cause: error });
    }
    if (code === 'ECONNREFUSED') return new TackError('TACK_ERR_UNREACHABLE', `${where} refused the connection: is it running?`, { cause: error });
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      return new TackError('TACK_ERR_UNREACHABLE', `${where}: the host name does not resolve`, { cause: error });
    if (midBody !== undefined && (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE' || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH')) {
      return new TackError(
        'TACK_ERR_BAD_RESPONSE',
        `${where} closed the connection in the middle of its answer (status ${midBody}) to ${req.method} ${pathOf(req.url)}`,
        { cause: error },
      );
    }
    if (
      code === 'HPE_INVALID_CONSTANT' ||
      code === 'HPE_INVALID_VERSION' ||
      name === 'HTTPParserError' ||
      (typeof code === 'string' && code.startsWith('HPE_'))
    ) {
      return new TackError(
        'TACK_ERR_BAD_RESPONSE',
        `${where} answered ${req.method} ${pathOf(req.url)} with something that is not HTTP: is it the right host and port (http vs https)?`,
        { cause: error },
      );
    }
    if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') {
      return new TackError('TACK_ERR_BAD_RESPONSE', `${where} closed the connection before answering ${req.method} ${pathOf(req.url)}`, { cause: error });
    }
    if (typeof code === 'string' && /CERT|SSL|TLS/.test(code)) {
      return new TackError('TACK_ERR_UNREACHABLE', `${where}: TLS failed (${code})${tlsAdvice(code, req.role)}`, { cause: error });
    }
    const message = error instanceof Error ? error.message : String(error);
    return new TackError('TACK_ERR_BAD_RESPONSE', `${where}: ${this.options.redactor.redact(message)} (${req.method} ${pathOf(req.url)})`, { cause: error });
  }
}

/** The variable that holds the address of each host tack calls, by the role its requests name. */
const ROLE_VARIABLES: Record<string, string> = {
  'tenant host': 'TACK_BASE_URL',
  'identity server': 'TACK_IDENTITY_URL',
  "tenant B's host": 'TACK_OTHER_BASE_URL',
  'test hook': 'TACK_HOOK_URL',
};

/**
 * What to do about a failed TLS handshake: a port that answers plain HTTP (ERR_SSL_WRONG_VERSION_NUMBER:
 * what came back was no TLS record) wants http://, a certificate not trusted wants TACK_INSECURE_TLS
 * (a sandbox) or a trusted certificate.
 */
export function tlsAdvice(code: string, role?: string): string {
  const variable = role === undefined ? undefined : ROLE_VARIABLES[role];
  if (/WRONG_VERSION_NUMBER|HTTP_REQUEST|PACKET_LENGTH_TOO_LONG/.test(code)) {
    return `: that port speaks plain HTTP, not TLS: use http:// instead of https://${variable ? ` in ${variable}` : ''}`;
  }
  if (/CERT|SELF_SIGNED|UNABLE/.test(code)) return '; for a sandbox with a self-signed certificate set TACK_INSECURE_TLS=1';
  return '';
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

export function parseJson(text: string): unknown {
  if (text === '') return undefined;
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

async function readCapped(body: AsyncIterable<Buffer>, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size < max) chunks.push(chunk.subarray(0, max - size));
    size += chunk.length;
  }
  return Buffer.concat(chunks).toString('utf8');
}
