/**
 * A TCP pass-through in front of the reference server that records every token exchange it
 * carries: the API token sent, and the refresh_token the server answered with, even when the
 * client was killed before reading it. Tests point TACK_BASE_URL / TACK_IDENTITY_URL at its port
 * (the reference server routes by Host, so names stay the same).
 *
 * With it, a test that kills tack can tell the two ways a token file can end up holding a token
 * the server no longer accepts:
 * - tack received the new token and went on without storing it (a bug: never allowed), or
 * - tack was killed while the answer was in flight (the server had rotated; no client can store an
 *   answer it has not received).
 */
import { EventEmitter } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface RecordedExchange {
  /** The API token the client sent. */
  readonly sent: string;
  /** The refresh_token the server answered with; undefined when it refused or has not answered yet. */
  issued: string | undefined;
  status: number | undefined;
}

const REQUEST_START = /(?=(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) \S+ HTTP\/1\.[01]\r\n)/;

export class ExchangeRecorder extends EventEmitter {
  readonly exchanges: RecordedExchange[] = [];
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  /** `delayAnswersMs`: hold every answer this long before passing it on (a slow sign-in server). */
  constructor(
    private readonly upstreamPort: number,
    private readonly delayAnswersMs = 0,
  ) {
    super();
  }

  async start(): Promise<void> {
    this.server = createServer((client) => this.carry(client));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The exchange that sent `token`, if any. */
  sentWith(token: string): RecordedExchange | undefined {
    return this.exchanges.find((e) => e.sent === token);
  }

  private carry(client: Socket): void {
    const upstream = connect(this.upstreamPort, '127.0.0.1');
    this.sockets.add(client);
    this.sockets.add(upstream);
    let requestText = '';
    let responseText = '';
    /** Per connection, in order: the exchange each request is (undefined for other requests). */
    const requests: (RecordedExchange | undefined)[] = [];
    let requestsParsed = 0;
    let responsesSeen = 0;

    const parseRequests = () => {
      // Re-split the whole stream: requests are small and a body may arrive in pieces.
      const parts = requestText.split(REQUEST_START).filter((p) => /^[A-Z]+ \S+ HTTP/.test(p));
      for (let i = requestsParsed; i < parts.length; i++) {
        const part = parts[i]!;
        const complete = isComplete(part);
        if (!complete) break;
        const isExchange = /^POST \S*\/protocol\/openid-connect\/token /.test(part);
        const sent = isExchange ? /(?:^|&|\r\n\r\n)refresh_token=([^&\s]+)/.exec(part)?.[1] : undefined;
        if (sent) {
          const record: RecordedExchange = { sent: decodeURIComponent(sent), issued: undefined, status: undefined };
          this.exchanges.push(record);
          requests.push(record);
          this.emit('exchange', record);
        } else requests.push(undefined);
        requestsParsed = i + 1;
      }
    };
    const parseResponses = () => {
      const parts = responseText.split(/(?=HTTP\/1\.1 \d{3} )/).filter((p) => p.startsWith('HTTP/1.1 '));
      for (let i = responsesSeen; i < parts.length; i++) {
        const part = parts[i]!;
        const record = requests[i];
        if (record) {
          record.status = Number(part.slice(9, 12));
          const issued = /"refresh_token"\s*:\s*"([^"]+)"/.exec(part)?.[1];
          if (issued) record.issued = issued;
        }
        if (isComplete(part)) responsesSeen = i + 1;
      }
    };

    client.on('data', (chunk: Buffer) => {
      requestText += chunk.toString('latin1');
      parseRequests();
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      // Record first, then pass on: the record holds the answer even if the client died meanwhile.
      responseText += chunk.toString('latin1');
      parseResponses();
      const pass = () => {
        if (!client.destroyed) client.write(chunk);
      };
      if (this.delayAnswersMs > 0) setTimeout(pass, this.delayAnswersMs);
      else pass();
    });
    // A killed client must not cut the server's answer short: the server may have rotated the token
    // already, and that answer is the only place the new token exists. Keep reading it a while.
    const clientGone = () => {
      client.destroy();
      this.sockets.delete(client);
      setTimeout(() => upstream.destroy(), 2_000).unref();
    };
    const upstreamGone = () => {
      upstream.destroy();
      client.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on('close', clientGone);
    client.on('error', clientGone);
    upstream.on('close', upstreamGone);
    upstream.on('error', upstreamGone);
  }
}

/** Whether a request or response text holds its whole body (Content-Length framing only). */
function isComplete(message: string): boolean {
  const headEnd = message.indexOf('\r\n\r\n');
  if (headEnd < 0) return false;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(message.slice(0, headEnd));
  const body = message.length - headEnd - 4;
  return length ? body >= Number(length[1]) : true;
}
