/** The `tack-hook/1` contract (docs/contracts/test-hook.md), every endpoint and error. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceServer } from '../../src/reference/index.js';
import { ALICE, DANA, call, exchange, hook, names, signIn, start } from './helpers.js';

let server: ReferenceServer;
beforeAll(async () => {
  server = await start({ hookToken: 'test-hook-token' });
});
afterAll(() => server.close());

describe('transport', () => {
  it('refuses a missing or wrong token with 401 {error,message} before matching a path', async () => {
    for (const authorization of [undefined, 'Bearer wrong', 'Basic dGVzdA==', 'Bearer test-hook-tokenx', 'Bearer test-hook-toke']) {
      for (const path of ['/__tack/', '/__tack/clock', '/__tack/no-such-path']) {
        const reply = await call(server, 'hook', 'GET', path, { headers: authorization === undefined ? {} : { authorization } });
        expect(reply.status).toBe(401);
        expect(reply.json()).toEqual({ error: 'unauthorized', message: expect.any(String) });
      }
    }
  });

  it('is served at 127.0.0.1, localhost, hook.localhost and [::1], and nowhere else', async () => {
    const auth = { authorization: 'Bearer test-hook-token' };
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`, `hook.localhost:${server.port}`, `[::1]:${server.port}`, 'LOCALHOST']) {
      expect((await call(server, host, 'GET', '/__tack/', { headers: auth })).status).toBe(200);
    }
    for (const host of ['acme', 'id']) {
      expect((await call(server, host, 'GET', '/__tack/', { headers: auth })).status).toBe(404);
    }
    expect(server.urls.hook).toBe(`http://127.0.0.1:${server.port}/__tack`);
  });

  it('answers 404 and 405 as {error,message}', async () => {
    const missing = await hook(server, 'GET', '/nothing');
    expect(missing.status).toBe(404);
    expect(missing.json()).toMatchObject({ error: 'not_found' });
    const wrong = await hook(server, 'DELETE', '/clock');
    expect(wrong.status).toBe(405);
    expect(wrong.json()).toMatchObject({ error: 'method_not_allowed' });
  });
});

describe('endpoints', () => {
  it('GET / names the contract and every capability', async () => {
    const reply = await hook(server, 'GET', '/');
    expect(reply.json()).toEqual({
      contract: 'tack-hook/1',
      capabilities: ['clock', 'users', 'api-tokens', 'disable-user', 'businesses', 'access', 'features', 'passwords'],
    });
    expect((await call(server, 'hook', 'GET', '/__tack', { headers: { authorization: 'Bearer test-hook-token' } })).status).toBe(200);
  });

  it('GET and POST /clock', async () => {
    const before = Date.parse((await hook(server, 'GET', '/clock')).json<{ now: string }>().now);
    const moved = await hook(server, 'POST', '/clock', { advanceSeconds: 3600 });
    expect(moved.status).toBe(200);
    const after = Date.parse(moved.json<{ now: string }>().now);
    expect(after - before).toBeGreaterThanOrEqual(3600_000);
    expect(moved.json<{ now: string }>().now).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect((await hook(server, 'POST', '/clock', { advanceSeconds: 0 })).status).toBe(200);
    for (const advanceSeconds of [-1, 1.5, '10', null, 1e300]) {
      const bad = await hook(server, 'POST', '/clock', { advanceSeconds });
      expect(bad.status).toBe(400);
      expect(bad.json()).toMatchObject({ error: 'bad_request' });
    }
    expect((await hook(server, 'POST', '/clock', {})).status).toBe(400);
  });

  it('POST /tenants/{tenant}/users: 201, membership in a second tenant, 409, 404, 400', async () => {
    const user = { email: 'hooked@example.com', firstName: 'Hoo', lastName: 'Ked', signIn: 'direct' };
    const created = await hook(server, 'POST', '/tenants/acme/users', user);
    expect(created.status).toBe(201);
    expect(created.json()).toEqual({ email: 'hooked@example.com' });
    expect((await hook(server, 'POST', '/tenants/acme/users', user)).status).toBe(409);
    expect((await hook(server, 'POST', '/tenants/globex/users', user)).status).toBe(201);
    const { accessToken } = await signIn(server, 'hooked@example.com', 'globex');
    expect((await call(server, 'globex', 'GET', '/api/businesses/search', { headers: { authorization: `Bearer ${accessToken}` } })).status).toBe(200);
    const unknown = await hook(server, 'POST', '/tenants/initech/users', user);
    expect(unknown.status).toBe(404);
    expect(unknown.json()).toMatchObject({ error: 'unknown_tenant' });
    expect((await hook(server, 'POST', '/tenants/acme/users', { ...user, email: 'x@example.com', signIn: 'sso' })).status).toBe(400);
    expect((await hook(server, 'POST', '/tenants/acme/users', { email: 'y@example.com' })).status).toBe(400);
  });

  it('POST .../api-tokens: 201 with a token that exchanges; 403 feature_disabled, not_direct; 404', async () => {
    const path = (email: string, tenant = 'acme') => `/tenants/${tenant}/users/${encodeURIComponent(email)}/api-tokens`;
    const ok = await hook(server, 'POST', path(ALICE), {});
    expect(ok.status).toBe(201);
    expect((await exchange(server, ok.json<{ apiToken: string }>().apiToken)).status).toBe(200);
    expect((await call(server, 'hook', 'POST', `/__tack${path(ALICE)}`, { headers: { authorization: 'Bearer test-hook-token' } })).status).toBe(201);
    const embedded = await hook(server, 'POST', path(DANA), {});
    expect(embedded.status).toBe(403);
    expect(embedded.json()).toMatchObject({ error: 'not_direct' });
    expect((await hook(server, 'POST', path('nobody@acme.example'), {})).status).toBe(404);
    expect((await hook(server, 'POST', path(ALICE, 'globex'), {})).status).toBe(404);
    expect((await hook(server, 'POST', path(ALICE, 'initech'), {})).status).toBe(404);

    expect((await hook(server, 'PUT', '/tenants/acme/features', { apiTokens: false })).status).toBe(204);
    const off = await hook(server, 'POST', path(ALICE), {});
    expect(off.status).toBe(403);
    expect(off.json()).toMatchObject({ error: 'feature_disabled' });
    expect((await hook(server, 'PUT', '/tenants/acme/features', { apiTokens: true })).status).toBe(204);
    expect((await hook(server, 'POST', path(ALICE), {})).status).toBe(201);
    expect((await hook(server, 'PUT', '/tenants/acme/features', { apiTokens: 'no' })).status).toBe(400);
    expect((await hook(server, 'PUT', '/tenants/initech/features', { apiTokens: true })).status).toBe(404);
  });

  it('POST /users/{email}/disable: 204, then the token is refused; 404 for nobody', async () => {
    await hook(server, 'POST', '/tenants/acme/users', { email: 'to.disable@example.com', firstName: 'T', lastName: 'D', signIn: 'direct' });
    const token = (await hook(server, 'POST', '/tenants/acme/users/to.disable%40example.com/api-tokens', {})).json<{ apiToken: string }>().apiToken;
    const disabled = await hook(server, 'POST', '/users/to.disable%40example.com/disable', {});
    expect(disabled.status).toBe(204);
    expect(disabled.text).toBe('');
    expect((await exchange(server, token)).json()).toMatchObject({ error: 'invalid_grant' });
    expect((await hook(server, 'POST', '/users/to.disable%40example.com/api-tokens', {})).status).toBe(404);
    expect((await hook(server, 'POST', '/tenants/acme/users/to.disable%40example.com/api-tokens', {})).json()).toMatchObject({ error: 'user_disabled' });
    expect((await hook(server, 'POST', '/users/nobody%40example.com/disable', {})).status).toBe(404);
  });

  it('POST /tenants/{tenant}/businesses and PUT .../access/{email}', async () => {
    const created = await hook(server, 'POST', '/tenants/globex/businesses', { name: 'Globex Zoo', registrationNumber: 'GLX-7' });
    expect(created.status).toBe(201);
    const { id } = created.json<{ id: string }>();
    expect(typeof id).toBe('string');
    const bob = 'bob@globex.example';
    expect((await hook(server, 'PUT', `/tenants/globex/businesses/${id}/access/${encodeURIComponent(bob)}`, { access: 'read' })).status).toBe(204);
    const { accessToken } = await signIn(server, bob, 'globex');
    expect(names(await call(server, 'globex', 'GET', '/api/businesses/search', { headers: { authorization: `Bearer ${accessToken}` } }))).toContain(
      'Globex Zoo',
    );
    expect((await hook(server, 'PUT', `/tenants/acme/businesses/${id}/access/${encodeURIComponent(bob)}`, { access: 'read' })).status).toBe(404);
    expect((await hook(server, 'PUT', `/tenants/globex/businesses/b999999/access/${encodeURIComponent(bob)}`, { access: 'read' })).status).toBe(404);
    expect((await hook(server, 'PUT', `/tenants/globex/businesses/${id}/access/nobody%40x.example`, { access: 'read' })).status).toBe(404);
    expect((await hook(server, 'PUT', `/tenants/globex/businesses/${id}/access/${encodeURIComponent(bob)}`, { access: 'write' })).status).toBe(400);
    expect((await hook(server, 'POST', '/tenants/initech/businesses', { name: 'X', registrationNumber: 'Y' })).status).toBe(404);
    expect((await hook(server, 'POST', '/tenants/globex/businesses', { name: 'X' })).status).toBe(400);
  });

  it('refuses malformed JSON and other media types in {error,message}', async () => {
    const auth = { authorization: 'Bearer test-hook-token' };
    const malformed = await call(server, 'hook', 'POST', '/__tack/clock', { headers: { ...auth, 'content-type': 'application/json' }, body: '{' });
    expect(malformed.status).toBe(400);
    expect(malformed.json()).toMatchObject({ error: 'malformed_json' });
    const text = await call(server, 'hook', 'POST', '/__tack/clock', { headers: { ...auth, 'content-type': 'text/plain' }, body: 'advanceSeconds=1' });
    expect(text.status).toBe(415);
    expect(text.json()).toMatchObject({ error: 'unsupported_media_type' });
  });

  it('issueApiToken does what the api-tokens endpoint does, without HTTP', async () => {
    expect((await exchange(server, server.issueApiToken('acme', ALICE))).status).toBe(200);
    expect(() => server.issueApiToken('acme', DANA)).toThrow(/partner's embedded app/);
    expect(() => server.issueApiToken('initech', ALICE)).toThrow(/No tenant/);
  });
});
