/**
 * An HTTP proxy in front of the reference server (which routes by Host name, so the names stay the
 * same and only the port changes) that can stop forwarding: `hold()` keeps every new request
 * waiting, unanswered, while the requests already forwarded complete. It records every API token
 * its answers delivered (a hook's `apiToken`, a token endpoint's `refresh_token`).
 *
 * With it, a test can kill tack at a moment when the target's state is frozen and every token the
 * target issued has been delivered: a kill then leaves nothing in flight, and "every token tack
 * received is in its journal" can be checked exactly.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export class HoldingProxy {
  /** API tokens the answers carried, in order. */
  readonly delivered: string[] = [];
  private server: Server | undefined;
  private holding = false;
  private readonly held: ServerResponse[] = [];
  private inFlight = 0;
  port = 0;

  constructor(private readonly upstreamPort: number) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => this.carry(req, res));
    this.server.keepAliveTimeout = 500;
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  /** From now on new requests wait, unanswered, until `pass()`; resolves once none forwarded is unanswered. */
  async hold(): Promise<void> {
    this.holding = true;
    while (this.inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  /** Forwards again; the requests held meanwhile are dropped (their client is gone). */
  pass(): void {
    this.holding = false;
    for (const res of this.held.splice(0)) res.destroy();
  }

  /** Points `env`'s URLs at the proxy instead of the server. */
  rewrite(env: Record<string, string>): Record<string, string> {
    return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.replaceAll(`:${this.upstreamPort}`, `:${this.port}`)]));
  }

  async close(): Promise<void> {
    this.pass();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private carry(req: IncomingMessage, res: ServerResponse): void {
    if (this.holding) {
      this.held.push(res);
      return;
    }
    this.inFlight++;
    const upstream = request({ host: '127.0.0.1', port: this.upstreamPort, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        const body = Buffer.concat(chunks);
        for (const m of body.toString('utf8').matchAll(/"(?:apiToken|refresh_token)"\s*:\s*"([^"]+)"/g)) this.delivered.push(m[1]!);
        this.inFlight--;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.end(body);
      });
    });
    upstream.on('error', () => {
      this.inFlight--;
      res.destroy();
    });
    req.pipe(upstream);
  }
}
