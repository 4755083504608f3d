/**
 * The reference server's scripted, recording mode (`tack client`'s server): one loopback port per
 * host role, routed by port whatever the Host header; rotated-out tokens refused at once (strict,
 * as Keycloak) where the default keeps a one-step grace; scripted answers that wait for a valid
 * access token; a recorder that keeps every exchange in order, bounded per run. Without these
 * options the server is the one `tack run` uses: no role ports, the grace kept.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ClientRecorder } from '../../src/reference/client-recorder.js';
import { type ReferenceOptions, type ReferenceServer, startReferenceServer } from '../../src/reference/index.js';

const servers: ReferenceServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(options: ReferenceOptions): Promise<ReferenceServer> {
  const server = await startReferenceServer(options);
  servers.push(server);
  return server;
}

async function exchange(identity: string, token: string): Promise<{ status: number; body: Record<string, string> }> {
  const res = await fetch(`${identity}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'anything.example' },
    body: new URLSearchParams({ grant_type: 'refresh_token', client_id: 'payroll-portal', refresh_token: token }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

const search = (base: string, access: string) => fetch(`${base}/api/businesses/search`, { headers: { authorization: `Bearer ${access}` } });

describe('the reference server for tack client', () => {
  it('serves each host role on its own loopback port, whatever the Host header; tack run gets no role ports', async () => {
    const server = await start({ rolePorts: true });
    const roles = server.roleUrls!;
    expect(roles.identity).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/realms\/payroll$/);
    const token = server.issueApiToken('acme', server.userEmail);
    const { body } = await exchange(roles.identity, token);
    const acme = await search(roles.tenants.acme!, body.access_token!);
    expect(((await acme.json()) as { items: unknown[] }).items).toHaveLength(3);
    // The same token at tenant B's port: alice is no member there.
    expect((await search(roles.tenants.globex!, body.access_token!)).status).toBe(403);
    const plain = await startReferenceServer();
    await plain.close();
    expect(plain.roleUrls).toBeUndefined();
  });

  it('strict rotation refuses a rotated-out API token at once; the default keeps it until its successor is used', async () => {
    for (const strict of [true, false]) {
      const server = await start({ rolePorts: true, strictRotation: strict });
      const first = server.issueApiToken('acme', server.userEmail);
      expect((await exchange(server.roleUrls!.identity, first)).status).toBe(200);
      const again = await exchange(server.roleUrls!.identity, first);
      expect(again.status, `strict ${strict}`).toBe(strict ? 400 : 200);
      if (strict) expect(again.body.error).toBe('invalid_grant');
    }
  });

  it('answers as scripted: 401 to the first search with a valid access token (a search without one gets the real 401), then normally', async () => {
    const script = [{ route: 'business search', reply: 'access-token-refused', times: 1, withValidAccessToken: true }] as const;
    const server = await start({ rolePorts: true, script });
    const base = server.roleUrls!.tenants.acme!;
    const { body } = await exchange(server.roleUrls!.identity, server.issueApiToken('acme', server.userEmail));
    const anonymous = await fetch(`${base}/api/businesses/search`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).not.toContain('invalid_token');
    const scripted = await search(base, body.access_token!);
    expect(scripted.status).toBe(401);
    expect(scripted.headers.get('www-authenticate')).toBe('Bearer realm="acme", error="invalid_token"');
    expect((await search(base, body.access_token!)).status).toBe(200);
  });

  it('answers every search with 403 when scripted so, as a problem', async () => {
    const server = await start({ rolePorts: true, script: [{ route: 'business search', reply: 'forbidden', withValidAccessToken: true }] });
    const { body } = await exchange(server.roleUrls!.identity, server.issueApiToken('acme', server.userEmail));
    for (let i = 0; i < 3; i++) {
      const res = await search(server.roleUrls!.tenants.acme!, body.access_token!);
      expect(res.status).toBe(403);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
    }
  });

  it('refuses to start with a script naming a route it does not have', async () => {
    await expect(startReferenceServer({ script: [{ route: 'business serach', reply: 'forbidden' }] })).rejects.toThrow(/business serach/);
  });

  it('records every exchange in order, with role, headers, body and answer; past the cap per run it counts and says so once', async () => {
    const overflows: number[] = [];
    const recorder = new ClientRecorder({ maxPerRun: 3, onOverflow: (run) => overflows.push(run) });
    const server = await start({ rolePorts: true, recorder });
    recorder.run = 1;
    const token = server.issueApiToken('acme', server.userEmail);
    const { body } = await exchange(server.roleUrls!.identity, token);
    await search(server.roleUrls!.tenants.acme!, body.access_token!);
    const headers = { 'content-type': 'application/json', 'X-Custom': 'v' };
    await fetch(`${server.roleUrls!.tenants.acme!}/api/admin/authentication/token`, { method: 'POST', headers, body: '{"username":"x"}' });
    await search(server.roleUrls!.tenants.acme!, 'garbage');
    await search(server.roleUrls!.tenants.acme!, 'garbage');
    recorder.run = 2;
    await search(server.roleUrls!.tenants.acme!, 'garbage');
    expect(recorder.exchanges.map((e) => `${e.run} ${e.role} ${e.request.method} ${e.request.target} ${e.response?.status}`)).toEqual([
      '1 identity POST /realms/payroll/protocol/openid-connect/token 200',
      '1 tenant:acme GET /api/businesses/search 200',
      '1 tenant:acme POST /api/admin/authentication/token 401',
      '2 tenant:acme GET /api/businesses/search 401',
    ]);
    expect(overflows).toEqual([1]);
    expect(recorder.countOf(1)).toBe(5);
    const [first, , admin] = recorder.exchanges;
    expect(new URLSearchParams(first!.request.body).get('refresh_token')).toBe(token);
    expect(JSON.parse(first!.response!.body).refresh_token).toMatch(/^tpat_/);
    expect(first!.response!.headers['cache-control']).toBe('no-store');
    expect(admin!.request.headers).toContainEqual(['X-Custom', 'v']);
    expect(admin!.request.body).toBe('{"username":"x"}');
  });
});
