/**
 * Real topologies: the sign-in server and the tenant host are different origins (here another
 * scheme, host name and port: an https proxy in front of the reference server's sign-in host), as
 * in production. exchange-search passes, and the sign-in origin gets its own connection pool, at
 * most one connection per chain, carrying token exchanges only; the chains' tokens are revoked when
 * the run ends (on connections of the run's clean-up, not of the load's pool).
 */
import { createServer, type Server } from 'node:https';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/index.js';
import { SELF_SIGNED_CERT, SELF_SIGNED_KEY } from '../robustness/tls-fixture.js';
import { load } from './helpers.js';

let reference: ReferenceServer;
let proxy: Server;
const seen = { connections: 0, cleanup: 0, paths: new Set<string>(), hosts: new Set<string>() };
const sockets = new WeakSet<object>();

beforeAll(async () => {
  reference = await startReferenceServer();
  // https://sso.localhost:P/realms/payroll → http://id.localhost:REF/realms/payroll
  proxy = createServer({ cert: SELF_SIGNED_CERT, key: SELF_SIGNED_KEY }, (req, res) => {
    seen.paths.add(req.url ?? '');
    seen.hosts.add(req.headers.host ?? '');
    if (!sockets.has(req.socket)) {
      sockets.add(req.socket);
      if (req.url?.endsWith('/revoke')) seen.cleanup++;
    }
    const upstream = request(
      { host: '127.0.0.1', port: reference.port, method: req.method, path: req.url, headers: { ...req.headers, host: `id.localhost:${reference.port}` } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  proxy.on('secureConnection', () => seen.connections++);
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await reference.close();
});

describe('sign-in server and tenant host on different origins', () => {
  it('exchange-search passes; the sign-in origin has its own pool, one connection per chain at most', async () => {
    const port = (proxy.address() as AddressInfo).port;
    const env = { ...reference.env, TACK_IDENTITY_URL: `https://sso.localhost:${port}/realms/payroll`, TACK_INSECURE_TLS: '1' };
    // Without the race probe: its own chain and its second copies would add connections of their own (docs/load.md, "Race probe").
    const run = await load('exchange-search', { duration: '1500ms', connections: 3, threshold: ['errors==0'], raceProbe: false }, env);
    expect(run.result.verdict.reasons).toEqual([]);
    expect(run.exitCode).toBe(0);
    const identity = `https://127.0.0.1:${port} (Host sso.localhost:${port})`;
    expect(run.output).toContain(`load goes to ${identity} and http://127.0.0.1:${reference.port} (Host acme.localhost:${reference.port})`);
    const { measured, warmup } = run.result;
    expect(measured.rotations + warmup.rotations).toBeGreaterThanOrEqual(3);
    expect(measured.byStatus['200']).toBeGreaterThan(10);
    // Exchanges went through the proxy, with the sign-in host's own name; searches did not. The
    // chains the hook made are revoked when the run ends: none is left alive.
    expect([...seen.paths]).toEqual(['/realms/payroll/protocol/openid-connect/token', '/realms/payroll/protocol/openid-connect/revoke']);
    expect(reference.liveApiTokens()).toBe(0);
    expect(run.output).toContain('API tokens generated 3, revoked 3, left alive 0');
    expect([...seen.hosts]).toEqual([`sso.localhost:${port}`]);
    expect(seen.connections).toBeGreaterThan(0);
    expect(seen.connections - seen.cleanup).toBeLessThanOrEqual(3);
  });
});
