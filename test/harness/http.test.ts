import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { HttpClient, localhostAwareLookup } from '../../src/harness/http.js';
import { Redactor } from '../../src/harness/redactor.js';
import { Transcript } from '../../src/harness/transcript.js';

describe('RFC 6761 localhost names', () => {
  it('resolves *.localhost to loopback without the system resolver', async () => {
    const one = await new Promise<unknown[]>((resolve) => localhostAwareLookup('acme.localhost', {}, (...args) => resolve(args)));
    expect(one).toEqual([null, '127.0.0.1', 4]);
    const all = await new Promise<unknown[]>((resolve) => localhostAwareLookup('ID.LOCALHOST.', { all: true }, (...args) => resolve(args)));
    expect(all).toEqual([null, [{ address: '127.0.0.1', family: 4 }]]);
  });

  it('reaches a loopback server by a *.localhost name and sends that Host', async () => {
    const server = createServer((req, res) => res.end(JSON.stringify({ host: req.headers.host })));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const http = new HttpClient({ timeoutMs: 2000, insecureTls: false, redactor: new Redactor(), transcript: new Transcript() });
    try {
      const res = await http.send({ method: 'GET', url: `http://acme.localhost:${port}/x` });
      expect(res.json).toEqual({ host: `acme.localhost:${port}` });
    } finally {
      await http.close();
      server.close();
    }
  });
});

describe('a 503 with Retry-After that tack honoured', () => {
  it('is marked retried in the transcript, so the run-wide no-5xx rules do not count it as a server error', async () => {
    let calls = 0;
    const server = createServer((_req, res) => {
      calls++;
      if (calls === 1) res.writeHead(503, { 'retry-after': '0' }).end('busy');
      else if (calls === 2) res.writeHead(503).end('down');
      else res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const transcript = new Transcript();
    const http = new HttpClient({ timeoutMs: 2000, insecureTls: false, redactor: new Redactor(), transcript });
    try {
      const first = await http.send({ method: 'GET', url: `http://127.0.0.1:${port}/x` });
      const second = await http.send({ method: 'GET', url: `http://127.0.0.1:${port}/x` });
      expect([first.status, second.status]).toEqual([503, 200]);
      // The first request: a 503 with Retry-After (honoured, sent again), then a 503 without it (its answer, which counts).
      expect(transcript.answered().map((e) => [e.response.status, e.retried])).toEqual([
        [503, true],
        [503, false],
        [200, false],
      ]);
    } finally {
      await http.close();
      server.close();
    }
  });
});
