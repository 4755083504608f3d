/**
 * Small misbehaving targets on 127.0.0.1 ephemeral ports, one per way a real environment breaks.
 * Each test starts its own and closes it; nothing here knows the spec beyond a plausible 401 (and a
 * 400 to a create-user call without fields, which tells the preflight the partner key is right).
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Server, type Socket } from 'node:net';
import { scaled } from '../helpers/time-limits.js';

/** Requests of a run's preflight against these servers: both hosts, the sign-in server's token endpoint, the partner key (mint, create-user). */
export const PREFLIGHT_REQUESTS = 5;

export type Misbehaviour =
  /** Accepts the connection, reads the request, never answers. */
  | 'hang'
  /** Accepts and closes the connection as soon as the request arrives. */
  | 'close'
  /** Sends a status line and headers promising 1000 bytes, 10 of them, then closes. */
  | 'close-mid-response'
  /** Answers bytes that are not HTTP at all. */
  | 'not-http'
  /** 200 with an HTML page (a login page, a proxy's splash screen). */
  | 'html-200'
  /** 200 claiming JSON, with random bytes as the body. */
  | 'garbage-200'
  | 'status-500'
  | 'status-503'
  /** Answers a plausible 401, but only after `slowMs`. */
  | 'slow';

export interface BrokenOptions {
  /** Answer this many requests well (a plausible 401 problem) before misbehaving: a target that breaks mid-run. */
  readonly healthyFirst?: number;
  /** Delay of `slow` (default: 2 s, and at least six times the request timeout of `env()`, which it must exceed). */
  readonly slowMs?: number;
}

export interface BrokenServer {
  readonly port: number;
  /** Requests (or connections, for raw modes) seen. */
  readonly seen: () => number;
  /** `http://{label}.localhost:PORT`: tack resolves `*.localhost` to loopback itself. */
  url(label: string, path?: string): string;
  /** Env of a remote target whose both hosts are this server, with the request timeout below. */
  env(extra?: Record<string, string>): Record<string, string>;
  /** TACK_REQUEST_TIMEOUT_MS of `env()`. */
  readonly timeoutMs: number;
  close(): Promise<void>;
}

const RAW: ReadonlySet<Misbehaviour> = new Set(['hang', 'close', 'not-http']);

export async function startBroken(mode: Misbehaviour, options: BrokenOptions = {}): Promise<BrokenServer> {
  const healthyFirst = options.healthyFirst ?? 0;
  const timeoutMs = requestTimeoutMs();
  const slowMs = options.slowMs ?? Math.max(2_000, 6 * timeoutMs);
  let count = 0;
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const answerWell = (res: ServerResponse, req?: IncomingMessage) => {
    // A create-user call without fields is refused for its body, as a target whose key is right does (the preflight asks).
    if (req?.url === '/api/admin/users') {
      res.writeHead(400, { 'content-type': 'application/problem+json' });
      return void res.end(JSON.stringify({ title: 'Bad Request', status: 400 }));
    }
    res.writeHead(401, { 'content-type': 'application/problem+json', 'www-authenticate': 'Bearer' });
    res.end(JSON.stringify({ title: 'Unauthorized', status: 401 }));
  };

  let server: Server;
  if (RAW.has(mode) && healthyFirst === 0) {
    server = createNetServer((socket) => {
      count++;
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
      socket.once('data', () => {
        if (mode === 'close') socket.destroy();
        else if (mode === 'not-http') socket.end('SSH-2.0-OpenSSH_9.6\r\nProtocol mismatch.\r\n');
        // hang: keep the socket open and silent
      });
    });
  } else {
    server = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
      count++;
      req.resume();
      req.on('end', () => {
        if (count <= healthyFirst) return answerWell(res, req);
        misbehave(mode, req, res, slowMs, timers, answerWell);
      });
    });
    server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;

  return {
    port,
    seen: () => count,
    url: (label, path = '') => `http://${label}.localhost:${port}${path}`,
    env: (extra = {}) =>
      targetEnv(`http://acme.localhost:${port}`, `http://id.localhost:${port}/realms/payroll`, { TACK_REQUEST_TIMEOUT_MS: String(timeoutMs), ...extra }),
    timeoutMs,
    async close() {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function misbehave(
  mode: Misbehaviour,
  req: IncomingMessage,
  res: ServerResponse,
  slowMs: number,
  timers: Set<NodeJS.Timeout>,
  answerWell: (res: ServerResponse) => void,
): void {
  switch (mode) {
    case 'hang':
      return; // never answer
    case 'close':
      req.socket.destroy();
      return;
    case 'not-http':
      req.socket.end('SSH-2.0-OpenSSH_9.6\r\n');
      return;
    case 'close-mid-response':
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"items":[');
      res.flushHeaders();
      setImmediate(() => req.socket.destroy());
      return;
    case 'html-200':
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html><head><title>Sign in</title></head><body><form>Maintenance</form></body></html>');
      return;
    case 'garbage-200': {
      const bytes = Buffer.alloc(512);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919 + 13) % 256;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(bytes);
      return;
    }
    case 'status-500':
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('Internal Server Error');
      return;
    case 'status-503':
      res.writeHead(503, { 'content-type': 'text/html' });
      res.end('<html><body>503 Service Temporarily Unavailable</body></html>');
      return;
    case 'slow': {
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!res.destroyed) answerWell(res);
      }, slowMs);
      timers.add(timer);
      return;
    }
  }
}

/**
 * The request timeout of these targets: 0.3 s on an idle machine, so that a hang ends a test soon,
 * scaled to the machine's load (../helpers/time-limits.ts) so that an answer (the preflight's
 * healthy ones, a TLS handshake) never turns into a timeout. Whole tenths of a second, as tack says them.
 */
export function requestTimeoutMs(): number {
  return Math.ceil(scaled(300) / 100) * 100;
}

/** What tack says of a request that ran out of the env's TACK_REQUEST_TIMEOUT_MS. */
export function timeoutWords(env: Record<string, string>): string {
  return `did not answer within ${Number(env['TACK_REQUEST_TIMEOUT_MS']) / 1000} s`;
}

/** A remote target's variables, with timeouts small enough for tests (scaled to the machine's load). */
export function targetEnv(baseUrl: string, identityUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    TACK_BASE_URL: baseUrl,
    TACK_IDENTITY_URL: identityUrl,
    TACK_PARTNER_CLIENT_ID: 'robustness-client',
    TACK_PARTNER_SECRET: 'robustness-secret-0123456789',
    TACK_REQUEST_TIMEOUT_MS: String(requestTimeoutMs()),
    TACK_RUN_DEADLINE_S: String(Math.ceil(scaled(20_000) / 1000)),
    ...extra,
  };
}

/** A port nothing listens on (listened on, then closed). */
export async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
