/**
 * A deliberately slow target for capacity tests: a node:http server that answers every token
 * exchange correctly (a fresh refresh token, expires_in 300) but only after `delayMs`. Any token is
 * accepted, so chains come from a token pool of made-up tokens (hookless mode).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SlowTarget {
  readonly env: Record<string, string>;
  readonly requests: () => number;
  close(): Promise<void>;
}

export async function startSlowTarget(delayMs: number): Promise<SlowTarget> {
  let issued = 0;
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        const n = ++issued;
        const body = JSON.stringify({ access_token: `slow-access-${n}`, refresh_token: `slow-refresh-${n}`, token_type: 'Bearer', expires_in: 300 });
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      }, delayMs);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    env: { TACK_BASE_URL: `http://acme.localhost:${port}`, TACK_IDENTITY_URL: `http://id.localhost:${port}/realms/payroll` },
    requests: () => issued,
    async close() {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
