/**
 * Politeness to shared environments: 429 + Retry-After honoured (bounded), 503 + Retry-After
 * waited for, `--rate` (tack run) spacing requests.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/conformance-run.js';
import { isTackError } from '../../src/harness/errors.js';
import { HttpClient } from '../../src/harness/http.js';
import { Politeness } from '../../src/harness/politeness.js';
import { Redactor } from '../../src/harness/redactor.js';
import { Transcript } from '../../src/harness/transcript.js';
import { targetEnv } from './broken-servers.js';
import { scaled } from '../helpers/time-limits.js';

type Answer = (n: number, req: IncomingMessage, res: ServerResponse) => void;

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** A server that answers request n (1-based) with `answer(n)`, and records when each arrived. */
async function serve(answer: Answer): Promise<{ port: number; arrivals: number[] }> {
  const arrivals: number[] = [];
  const server = createServer((req, res) => {
    arrivals.push(performance.now());
    req.resume();
    req.on('end', () => answer(arrivals.length, req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push({
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return { port: (server.address() as { port: number }).port, arrivals };
}

/** A plausible 401; a create-user call without fields is refused for its body instead, as a target whose key is right does (the preflight asks). */
const unauthorized = (res: ServerResponse, req?: IncomingMessage) => {
  if (req?.url === '/api/admin/users') return void res.writeHead(400, { 'content-type': 'application/problem+json' }).end('{"status":400}');
  res.writeHead(401, { 'content-type': 'application/problem+json', 'www-authenticate': 'Bearer' });
  res.end(JSON.stringify({ title: 'Unauthorized', status: 401 }));
};
const tooMany = (res: ServerResponse, retryAfter?: string) => {
  res.writeHead(429, { 'content-type': 'text/plain', ...(retryAfter === undefined ? {} : { 'retry-after': retryAfter }) });
  res.end('slow down');
};

function client(politeness?: Politeness): { http: HttpClient; transcript: Transcript } {
  const transcript = new Transcript();
  const http = new HttpClient({ timeoutMs: scaled(2_000), insecureTls: false, redactor: new Redactor(), transcript, ...(politeness ? { politeness } : {}) });
  open.push({ close: () => http.close() });
  return { http, transcript };
}

describe('429 Too Many Requests', () => {
  it('answers 429 (Retry-After: 1) twice, then OK: tack waits 1 s each time and gets the answer', async () => {
    const { port, arrivals } = await serve((n, _req, res) => (n <= 2 ? tooMany(res, '1') : unauthorized(res)));
    const { http } = client();
    const started = performance.now();
    const res = await http.send({ method: 'GET', url: `http://acme.localhost:${port}/api/businesses/search`, role: 'tenant host' });
    const ms = performance.now() - started;
    expect(res.status).toBe(401);
    expect(arrivals).toHaveLength(3);
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(950);
    expect(arrivals[2]! - arrivals[1]!).toBeGreaterThanOrEqual(950);
    expect(ms).toBeLessThan(scaled(15_000)); // bounded, with room for a busy machine
  });

  it('honours Retry-After given as an HTTP date', async () => {
    const { port, arrivals } = await serve((n, _req, res) => (n === 1 ? tooMany(res, new Date(Date.now() + 1_500).toUTCString()) : unauthorized(res)));
    const { http } = client();
    const res = await http.send({
      method: 'POST',
      url: `http://id.localhost:${port}/realms/r/protocol/openid-connect/token`,
      body: 'a=b',
      role: 'identity server',
    });
    expect(res.status).toBe(401);
    expect(arrivals).toHaveLength(2);
    // HTTP dates have whole seconds: between 0.5 and 1.5 s.
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(400);
  });

  it('a wait longer than tack accepts ends the request at once with TACK_ERR_RATE_LIMITED naming the host', async () => {
    const { port, arrivals } = await serve((_n, _req, res) => tooMany(res, '3600'));
    const { http } = client();
    const started = performance.now();
    const error = await http.send({ method: 'GET', url: `http://acme.localhost:${port}/x`, role: 'tenant host' }).catch((e: unknown) => e);
    expect(isTackError(error, 'TACK_ERR_RATE_LIMITED')).toBe(true);
    expect((error as Error).message).toContain(`tenant host http://acme.localhost:${port} answered 429 Too Many Requests and asked tack to wait 3600 s`);
    expect(arrivals).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(scaled(15_000)); // not the 3600 s asked for
  });

  it('a target that keeps answering 429 is given up on after the bounded number of retries', async () => {
    const { port, arrivals } = await serve((_n, _req, res) => tooMany(res, '0'));
    const { http } = client(new Politeness({ maxRetries: 3 }));
    const error = await http.send({ method: 'GET', url: `http://acme.localhost:${port}/x`, role: 'tenant host' }).catch((e: unknown) => e);
    expect(isTackError(error, 'TACK_ERR_RATE_LIMITED')).toBe(true);
    expect((error as Error).message).toContain('4 times in a row');
    expect(arrivals).toHaveLength(4);
  });

  it('without Retry-After, backs off 1 s, 2 s... (bounded by maxWaitMs)', async () => {
    const { port, arrivals } = await serve((n, _req, res) => (n === 1 ? tooMany(res) : unauthorized(res)));
    const waits: number[] = [];
    const sleep = (ms: number) => {
      waits.push(ms);
      return new Promise<void>((resolve) => setTimeout(resolve, ms));
    };
    const { http } = client(new Politeness({ maxWaitMs: 300, sleep }));
    const res = await http.send({ method: 'GET', url: `http://acme.localhost:${port}/x` });
    expect(res.status).toBe(401);
    expect(arrivals).toHaveLength(2);
    // The first back-off would be 1 s; maxWaitMs bounds it to 300 ms (the wait asked for, not timed).
    expect(waits).toEqual([300]);
  });

  it('503 with Retry-After is waited for; 503 without it is an answer', async () => {
    const withHeader = await serve((n, _req, res) => {
      if (n === 1) {
        res.writeHead(503, { 'retry-after': '1' });
        res.end();
      } else unauthorized(res);
    });
    const { http } = client();
    expect((await http.send({ method: 'GET', url: `http://acme.localhost:${withHeader.port}/x` })).status).toBe(401);
    expect(withHeader.arrivals).toHaveLength(2);
    const without = await serve((_n, _req, res) => {
      res.writeHead(503);
      res.end();
    });
    expect((await http.send({ method: 'GET', url: `http://acme.localhost:${without.port}/x` })).status).toBe(503);
    expect(without.arrivals).toHaveLength(1);
  });

  it('tack run goes on after a 429 with Retry-After instead of failing or erroring', async () => {
    const { port } = await serve((n, req, res) => (n <= 2 ? tooMany(res, '1') : unauthorized(res, req)));
    const reports = mkdtempSync(join(tmpdir(), 'tack-polite-'));
    try {
      let output = '';
      const started = performance.now();
      const exit = await runCommand(
        { only: ['ACCESS-TOKEN-REQUIRED'], runs: 2, strict: false, reports, fault: [], quiet: false, seed: 1 },
        (s) => (output += s),
        targetEnv(`http://acme.localhost:${port}`, `http://id.localhost:${port}/realms/payroll`),
      );
      expect(output).toMatch(/✔ ACCESS-TOKEN-REQUIRED/);
      expect(exit).toBe(0);
      expect(performance.now() - started).toBeGreaterThanOrEqual(1_900);
    } finally {
      rmSync(reports, { recursive: true, force: true });
    }
  });
});

describe('--rate (tack run), formerly --max-rps', () => {
  it('spaces requests: no more than N start in any second', async () => {
    const { port, arrivals } = await serve((_n, _req, res) => unauthorized(res));
    const { http } = client(new Politeness({ maxRps: 20 }));
    const started = performance.now();
    await Promise.all(Array.from({ length: 6 }, () => http.send({ method: 'GET', url: `http://acme.localhost:${port}/x` })));
    expect(arrivals).toHaveLength(6);
    // The sixth request may not start before 5 intervals of 50 ms have passed. (Gaps between single
    // arrivals are not asserted: network delays on a busy machine can bunch them up.)
    expect(Math.max(...arrivals) - started).toBeGreaterThanOrEqual(5 * 50 - 2);
  });

  it('tack run --rate 10 keeps a whole run under 10 requests per second', async () => {
    const { port, arrivals } = await serve((_n, req, res) => unauthorized(res, req));
    const reports = mkdtempSync(join(tmpdir(), 'tack-polite-'));
    try {
      const started = performance.now();
      await runCommand(
        { only: ['ACCESS-TOKEN-REQUIRED'], runs: 2, strict: false, reports, fault: [], quiet: true, seed: 1, maxRps: 10 },
        () => undefined,
        targetEnv(`http://acme.localhost:${port}`, `http://id.localhost:${port}/realms/payroll`),
      );
      expect(arrivals.length).toBeGreaterThan(3);
      // The n-th request may not start before n - 1 intervals of 100 ms (timer granularity: 2 ms each).
      expect(Math.max(...arrivals) - started).toBeGreaterThanOrEqual((arrivals.length - 1) * 98);
    } finally {
      rmSync(reports, { recursive: true, force: true });
    }
  });
});
