/**
 * The node:http server: one port, keep-alive on, every socket tracked so that `close()` ends them
 * all at once. Malformed HTTP (bad request line, oversized headers, non-ASCII in the target) is
 * answered 400 by the clientError handler; socket errors from clients that vanish are swallowed.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

interface Listening {
  readonly server: Server;
  readonly port: number;
  close(): Promise<void>;
}

/** A complete raw response for a request Node could not parse (the request listener never ran). */
function rawProblem(status: number, reason: string, detail: string): string {
  const body = JSON.stringify({ type: `urn:tack:problem:${reason.toLowerCase().replaceAll(' ', '_')}`, title: reason, status, detail });
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/problem+json\r\nConnection: close\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

const BAD_REQUEST = rawProblem(400, 'Bad Request', 'The request is not well-formed HTTP.');
const HEADERS_TOO_LARGE = rawProblem(431, 'Request Header Fields Too Large', 'The request headers are too large.');
const TIMEOUT = rawProblem(408, 'Request Timeout', 'The request did not arrive in time.');

export function listen(listener: (req: IncomingMessage, res: ServerResponse) => void, port: number, bind: string): Promise<Listening> {
  const server = createServer({ keepAlive: true, requestTimeout: 30_000, headersTimeout: 10_000 }, listener);
  server.keepAliveTimeout = 30_000;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    socket.end(error.code === 'HPE_HEADER_OVERFLOW' ? HEADERS_TOO_LARGE : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? TIMEOUT : BAD_REQUEST);
  });
  server.on('connection', (socket: Socket) => {
    socket.on('error', () => socket.destroy());
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, bind, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      resolve({ server, port: address.port, close: () => closeServer(server) });
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
