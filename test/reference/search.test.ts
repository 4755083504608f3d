/** Spec §4.3, §7: business search at a tenant host. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceServer } from '../../src/reference/index.js';
import { ALICE, BOB, call, hook, mint, names, problem, search, signIn, start } from './helpers.js';

let server: ReferenceServer;
beforeAll(async () => {
  server = await start();
});
afterAll(() => server.close());

interface Page {
  items: { id: string; name: string; registrationNumber: string }[];
  pageIndex: number;
  pageSize: number;
  totalCount: number;
}

describe('§4.3 search shape and paging', () => {
  it('answers items, pageIndex, pageSize, totalCount with the defaults', async () => {
    const { accessToken } = await signIn(server);
    const reply = await search(server, 'acme', accessToken);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    const page = reply.json<Page>();
    expect(page).toMatchObject({ pageIndex: 0, pageSize: 20, totalCount: 3 });
    expect(page.items.map((i) => Object.keys(i).sort())).toEqual(page.items.map(() => ['id', 'name', 'registrationNumber']));
    expect(page.items.map((i) => i.registrationNumber)).toEqual(['ACME-1001', 'ACME-1002', 'ACME-1003']);
  });

  it('pages (0-based), filters by q, caps pageSize at 100', async () => {
    const { accessToken } = await signIn(server);
    expect((await search(server, 'acme', accessToken, '?pageSize=2&pageIndex=1')).json<Page>()).toMatchObject({
      items: [{ name: 'Acme Springs GmbH' }],
      pageIndex: 1,
      pageSize: 2,
      totalCount: 3,
    });
    expect((await search(server, 'acme', accessToken, '?pageIndex=7')).json<Page>()).toMatchObject({ items: [], totalCount: 3 });
    expect(names(await search(server, 'acme', accessToken, '?q=rock'))).toEqual(['Acme Rockets Ltd']);
    expect(names(await search(server, 'acme', accessToken, '?q=acme-1003'))).toEqual(['Acme Springs GmbH']);
    expect((await search(server, 'acme', accessToken, '?pageSize=1000')).json<Page>().pageSize).toBe(100);
  });

  it.each(['?pageSize=0', '?pageSize=-1', '?pageIndex=-1', '?pageIndex=x', '?pageSize=1.5', '?pageIndex=99999999999'])('refuses %s with 400', async (query) => {
    const { accessToken } = await signIn(server);
    const reply = await search(server, 'acme', accessToken, query);
    expect(reply.status).toBe(400);
    problem(reply);
  });
});

describe('§4.3 §7 authentication and permissions', () => {
  it('401 with WWW-Authenticate: Bearer without a token, with a garbage or tampered one', async () => {
    const none = await search(server, 'acme', undefined);
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="acme"');
    problem(none);
    const { accessToken } = await signIn(server);
    for (const bad of ['garbage', `${accessToken}x`, accessToken.replace('.u1.', '.u2.')]) {
      const reply = await search(server, 'acme', bad);
      expect(reply.status).toBe(401);
      expect(reply.headers['www-authenticate']).toBe('Bearer realm="acme", error="invalid_token"');
    }
    const basic = await call(server, 'acme', 'GET', '/api/businesses/search', { headers: { authorization: 'Basic YTpi' } });
    expect(basic.status).toBe(401);
  });

  it('lists only readable businesses; a removed permission is gone on the next request', async () => {
    const { accessToken } = await signIn(server);
    const created = await hook(server, 'POST', '/tenants/acme/businesses', { name: 'Acme Zeppelins', registrationNumber: 'ACME-9001' });
    const { id } = created.json<{ id: string }>();
    expect(names(await search(server, 'acme', accessToken))).not.toContain('Acme Zeppelins');
    await hook(server, 'PUT', `/tenants/acme/businesses/${id}/access/${encodeURIComponent(ALICE)}`, { access: 'read' });
    expect(names(await search(server, 'acme', accessToken))).toContain('Acme Zeppelins');
    await hook(server, 'PUT', `/tenants/acme/businesses/${id}/access/${encodeURIComponent(ALICE)}`, { access: 'none' });
    expect(names(await search(server, 'acme', accessToken))).not.toContain('Acme Zeppelins');
  });

  it('403 for a caller who is not a member of the host tenant', async () => {
    const { accessToken } = await signIn(server, BOB, 'globex');
    const reply = await search(server, 'acme', accessToken);
    expect(reply.status).toBe(403);
    expect(problem(reply).type).toBe('urn:tack:problem:not_a_member');
  });

  it("takes the tenant from the host: each host lists only its own tenant's businesses", async () => {
    const { accessToken } = await signIn(server, 'casey@both.example');
    expect(names(await search(server, 'acme', accessToken))).toEqual(['Acme Anvils Ltd']);
    expect(names(await search(server, 'globex', accessToken))).toEqual(['Globex Chemicals']);
    expect(names(await search(server, 'globex', accessToken, '?tenant=acme'))).toEqual(['Globex Chemicals']);
  });

  it('a member without any read access gets an empty list', async () => {
    await hook(server, 'POST', '/tenants/acme/users', { email: 'empty@acme.example', firstName: 'E', lastName: 'M', signIn: 'embedded' });
    const { accessToken } = await mint(server, 'empty@acme.example');
    expect((await search(server, 'acme', accessToken)).json<Page>()).toMatchObject({ items: [], totalCount: 0 });
  });

  it('405 for other methods, 404 for other paths and unknown tenants', async () => {
    const { accessToken } = await signIn(server);
    const post = await call(server, 'acme', 'POST', '/api/businesses/search', { headers: { authorization: `Bearer ${accessToken}` }, json: {} });
    expect(post.status).toBe(405);
    expect(post.headers['allow']).toBe('GET');
    expect((await call(server, 'acme', 'GET', '/api/businesses')).status).toBe(404);
    expect((await call(server, 'acme', 'GET', '/api/businesses/search/')).status).toBe(404);
    const unknown = await search(server, 'initech', accessToken);
    expect(unknown.status).toBe(404);
    expect(problem(unknown).type).toBe('urn:tack:problem:unknown_tenant');
  });
});
