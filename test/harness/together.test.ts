import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/harness/http.js';
import { Redactor } from '../../src/harness/redactor.js';
import { Together } from '../../src/harness/together.js';
import { Transcript } from '../../src/harness/transcript.js';

interface Seen {
  readonly port: number;
  readonly headersAt: number;
  readonly completeAt: number;
  readonly body: string;
}

/** A server that notes, for each request, its connection, when its headers came and when its body was complete. */
async function recording(): Promise<{ server: Server; url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const headersAt = performance.now();
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      seen.push({ port: req.socket.remotePort ?? 0, headersAt, completeAt: performance.now(), body });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`, seen };
}

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

describe('requests sent together (last-byte synchronisation)', () => {
  it('each on its own connection, the whole body sent, the batch in the transcript', async () => {
    const { server, url, seen } = await recording();
    servers.push(server);
    const transcript = new Transcript();
    const http = new HttpClient({ timeoutMs: 5000, insecureTls: false, redactor: new Redactor(), transcript });
    try {
      await http.send({ method: 'POST', url, body: 'warm=1' }); // a connection already open must not make one of them early
      seen.length = 0;
      const batch = new Together(6);
      const body = 'grant_type=refresh_token&refresh_token=abc';
      await Promise.all(Array.from({ length: 6 }, () => http.send({ method: 'POST', url, body, gate: batch.gate() })));
      expect(seen.map((s) => s.body)).toEqual(Array(6).fill(body));
      expect(new Set(seen.map((s) => s.port)).size).toBe(6);
      const batches = transcript.redacted(new Redactor()).map((e) => e.together);
      expect(batches).toEqual([undefined, ...Array(6).fill(batch.batch)]);
    } finally {
      await http.close();
    }
  });

  it('the headers go at once, the last byte of the body only when the batch is complete (here: after its longest wait, one request short)', async () => {
    const { server, url, seen } = await recording();
    servers.push(server);
    const http = new HttpClient({ timeoutMs: 5000, insecureTls: false, redactor: new Redactor(), transcript: new Transcript() });
    try {
      const batch = new Together(3, 400);
      const started = performance.now();
      await Promise.all([1, 2].map(() => http.send({ method: 'POST', url, body: 'x=1', gate: batch.gate() })));
      expect(seen).toHaveLength(2);
      for (const one of seen) {
        expect(one.headersAt - started).toBeLessThan(350);
        expect(one.completeAt - started).toBeGreaterThanOrEqual(390);
      }
    } finally {
      await http.close();
    }
  });
});
