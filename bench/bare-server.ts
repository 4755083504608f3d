/**
 * Benchmark part (a): the ceiling of Node on this machine. A bare node:http server that reads a
 * form POST and answers at once a JSON body shaped like a token-exchange answer, with a fresh
 * refresh token every time (so the load engine does the same work on both sides: build a form,
 * parse a JSON answer, store the rotated token; and a client that checks rotation is satisfied).
 * Runs in its own process; sends its port to the parent over IPC and answers `cpu` messages with
 * its CPU time so far.
 *
 * With a capacity argument (`bare-server.ts 5000`) it is a target of fixed capacity for part (d):
 * one queue served at that many answers per second (each answer leaves 1/capacity s after the one
 * before it, or at once when none waits), so its knee is the same however fast the machine is; its
 * own CPU use stays small.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

let issued = 0;
/** Answers per second at most; 0: as fast as it can. */
const capacity = Number(process.argv[2] ?? 0);
/** When the queue is free again (ms, performance.now()). */
let nextFree = 0;

const server = createServer({ keepAlive: true }, (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    // Read the form like a real endpoint would, then answer the fixed body.
    new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('refresh_token');
    const answer = () => {
      const n = ++issued;
      const body = `{"access_token":"bench-access-${n}","expires_in":300,"token_type":"Bearer","refresh_token":"bench-refresh-${n}"}`;
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    if (!(capacity > 0)) return answer();
    const now = performance.now();
    nextFree = Math.max(now, nextFree) + 1000 / capacity;
    setTimeout(answer, nextFree - now);
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
process.on('message', (message: unknown) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
});
process.on('disconnect', () => process.exit(0));
