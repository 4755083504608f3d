/** Spec §4.1, §5, §7: the partner-key endpoints of a tenant host. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceServer } from '../../src/reference/index.js';
import { ALICE, BOB, CASEY, DANA, call, hook, mint, names, partnerKey, problem, search, start } from './helpers.js';

let server: ReferenceServer;
beforeAll(async () => {
  server = await start();
});
afterAll(() => server.close());

const TOKEN_PATH = '/api/admin/authentication/token';
const REFRESH_PATH = '/api/admin/authentication/refresh';

function post(path: string, json: unknown, headers: Record<string, string> = partnerKey(server), tenant = 'acme') {
  return call(server, tenant, 'POST', path, { headers, json });
}

describe('§5 partner key headers', () => {
  it('refuses a call without either header with a 401 problem', async () => {
    const key = partnerKey(server);
    const partial: Record<string, string>[] = [{}, { 'Tenant-Key-1': key['Tenant-Key-1'] ?? '' }, { 'Tenant-Key-2': key['Tenant-Key-2'] ?? '' }];
    for (const headers of partial) {
      const reply = await post(TOKEN_PATH, { username: ALICE }, headers);
      expect(reply.status).toBe(401);
      expect(problem(reply).type).toBe('urn:tack:problem:missing_credentials');
      expect(reply.headers['www-authenticate']).toBe('Tenant-Key realm="acme"');
    }
  });

  it('refuses a wrong client id, a wrong secret, a prefix and an extension of the secret', async () => {
    const key = partnerKey(server);
    const secret = key['Tenant-Key-2'] ?? '';
    const variants = [
      { 'Tenant-Key-1': 'nobody', 'Tenant-Key-2': secret },
      { 'Tenant-Key-1': 'acme-partner', 'Tenant-Key-2': 'wrong' },
      { 'Tenant-Key-1': 'acme-partner', 'Tenant-Key-2': secret.slice(0, -1) },
      { 'Tenant-Key-1': 'acme-partner', 'Tenant-Key-2': `${secret}x` },
      { 'Tenant-Key-1': 'acme-partner', 'Tenant-Key-2': secret.toUpperCase() },
    ];
    for (const headers of variants) {
      const reply = await post(TOKEN_PATH, { username: ALICE }, headers);
      expect(reply.status).toBe(401);
      expect(problem(reply).type).toBe('urn:tack:problem:invalid_credentials');
    }
  });

  it("refuses another tenant's valid key (tenant binding)", async () => {
    const reply = await post(TOKEN_PATH, { username: CASEY }, partnerKey(server, 'globex'), 'acme');
    expect(reply.status).toBe(401);
    problem(reply);
  });

  it('matches header names in any letter case, and only the configured names', async () => {
    const key = partnerKey(server);
    const lower = { 'tenant-key-1': key['Tenant-Key-1'] ?? '', 'TENANT-KEY-2': key['Tenant-Key-2'] ?? '' };
    expect((await post(TOKEN_PATH, { username: ALICE }, lower)).status).toBe(200);
    const other = { 'X-Tenant-Key-1': key['Tenant-Key-1'] ?? '', 'X-Tenant-Key-2': key['Tenant-Key-2'] ?? '' };
    expect((await post(TOKEN_PATH, { username: ALICE }, other)).status).toBe(401);
  });

  it('uses configured header names', async () => {
    const custom = await start({ partnerHeaders: ['X-Partner-Id', 'X-Partner-Secret'] });
    try {
      expect(custom.env['TACK_PARTNER_HEADERS']).toBe('X-Partner-Id,X-Partner-Secret');
      const key = partnerKey(custom);
      const ok = await call(custom, 'acme', 'POST', TOKEN_PATH, { headers: key, json: { username: ALICE } });
      expect(ok.status).toBe(200);
      const old = { 'Tenant-Key-1': custom.env['TACK_PARTNER_CLIENT_ID'] ?? '', 'Tenant-Key-2': custom.env['TACK_PARTNER_SECRET'] ?? '' };
      expect((await call(custom, 'acme', 'POST', TOKEN_PATH, { headers: old, json: { username: ALICE } })).status).toBe(401);
    } finally {
      await custom.close();
    }
  });

  it('refuses invalid header name configurations', async () => {
    await expect(start({ partnerHeaders: ['Same', 'same'] })).rejects.toThrow(/differ/);
    await expect(start({ partnerHeaders: ['Bad Name', 'X'] })).rejects.toThrow(/not a valid/);
    await expect(start({ partnerHeaders: ['Authorization', 'X'] })).rejects.toThrow(/reserved/);
  });
});

describe('§4.1 token mint', () => {
  it('returns an access token and a refresh token; the access token works at this host', async () => {
    const reply = await post(TOKEN_PATH, { username: ALICE });
    expect(reply.status).toBe(200);
    expect(reply.headers['cache-control']).toBe('no-store');
    const body = reply.json<{ accessToken: string; refreshToken: string; tokenType: string; expiresIn: number }>();
    expect(body.tokenType).toBe('Bearer');
    expect(body.expiresIn).toBe(300);
    expect(body.refreshToken).toMatch(/^tprt_/);
    const found = await search(server, 'acme', body.accessToken);
    expect(found.status).toBe(200);
  });

  it('issues no token for a non-member or an unknown address (404), nor for a disabled member (403)', async () => {
    for (const username of [BOB, 'nobody@nowhere.example']) {
      const reply = await post(TOKEN_PATH, { username });
      expect(reply.status).toBe(404);
      expect(problem(reply).type).toBe('urn:tack:problem:user_not_found');
      expect(reply.text).not.toMatch(/accessToken|refreshToken/);
    }
    await hook(server, 'POST', '/tenants/acme/users', { email: 'gone@acme.example', firstName: 'G', lastName: 'One', signIn: 'direct' });
    await hook(server, 'POST', '/users/gone%40acme.example/disable', {});
    const disabled = await post(TOKEN_PATH, { username: 'gone@acme.example' });
    expect(disabled.status).toBe(403);
    problem(disabled);
  });

  it('mints for an embedded-app user too', async () => {
    expect((await post(TOKEN_PATH, { username: DANA })).status).toBe(200);
  });

  it('narrows the token to the minting tenant (a member of both tenants)', async () => {
    const fromAcme = await mint(server, CASEY, 'acme');
    expect((await search(server, 'acme', fromAcme.accessToken)).status).toBe(200);
    const elsewhere = await search(server, 'globex', fromAcme.accessToken);
    expect(elsewhere.status).toBe(403);
    expect(problem(elsewhere).type).toBe('urn:tack:problem:wrong_tenant');
    const fromGlobex = await mint(server, CASEY, 'globex');
    expect(names(await search(server, 'globex', fromGlobex.accessToken))).toEqual(['Globex Chemicals']);
  });

  it("carries the user's own permissions, not the key's", async () => {
    const { accessToken } = await mint(server, CASEY, 'acme');
    expect(names(await search(server, 'acme', accessToken))).toEqual(['Acme Anvils Ltd']);
  });

  it('refuses malformed bodies with 400 problems', async () => {
    for (const json of [{}, { username: 42 }, { username: '' }, []]) {
      const reply = await post(TOKEN_PATH, json);
      expect(reply.status).toBe(400);
      problem(reply);
    }
  });
});

describe('§4.1 rule 2 refresh', () => {
  it('returns working tokens with the same headers at the same host, and rotates', async () => {
    const first = await mint(server, ALICE);
    const reply = await post(REFRESH_PATH, { refreshToken: first.refreshToken });
    expect(reply.status).toBe(200);
    const next = reply.json<{ accessToken: string; refreshToken: string }>();
    expect(next.refreshToken).not.toBe(first.refreshToken);
    expect((await search(server, 'acme', next.accessToken)).status).toBe(200);
    // Using the new refresh token ends the grace of the old one (docs/reference-server.md).
    expect((await post(REFRESH_PATH, { refreshToken: next.refreshToken })).status).toBe(200);
    const again = await post(REFRESH_PATH, { refreshToken: first.refreshToken });
    expect(again.status).toBe(401);
    expect(problem(again).type).toBe('urn:tack:problem:invalid_refresh_token');
  });

  it('refuses a refresh token alone, without consuming it', async () => {
    const { refreshToken } = await mint(server, ALICE);
    const alone = await post(REFRESH_PATH, { refreshToken }, {});
    expect(alone.status).toBe(401);
    problem(alone);
    expect((await post(REFRESH_PATH, { refreshToken })).status).toBe(200);
  });

  it("refuses tenant A's refresh token at tenant B, even with B's key, without consuming it", async () => {
    const { refreshToken } = await mint(server, CASEY, 'acme');
    const cross = await post(REFRESH_PATH, { refreshToken }, partnerKey(server, 'globex'), 'globex');
    expect(cross.status).toBe(401);
    problem(cross);
    expect((await post(REFRESH_PATH, { refreshToken }, partnerKey(server, 'globex'), 'acme')).status).toBe(401);
    expect((await post(REFRESH_PATH, { refreshToken })).status).toBe(200);
  });

  it('refuses unknown and malformed refresh tokens', async () => {
    expect((await post(REFRESH_PATH, { refreshToken: 'nope' })).status).toBe(401);
    expect((await post(REFRESH_PATH, {})).status).toBe(400);
    expect((await post(REFRESH_PATH, { refreshToken: 7 })).status).toBe(400);
  });
});

describe('§4.1 create user', () => {
  const USERS = '/api/admin/users';

  it('creates with the required fields (201) and refuses a duplicate (409), in any letter case', async () => {
    const created = await post(USERS, { email: 'new.one@acme.example', firstName: 'New', lastName: 'One' });
    expect(created.status).toBe(201);
    expect(created.json()).toMatchObject({ email: 'new.one@acme.example', firstName: 'New', lastName: 'One' });
    const again = await post(USERS, { email: 'New.One@ACME.example', firstName: 'New', lastName: 'One' });
    expect(again.status).toBe(409);
    expect(problem(again).type).toBe('urn:tack:problem:user_exists');
    expect((await mint(server, 'new.one@acme.example')).accessToken).toBeTruthy();
  });

  it('accepts the optional fields', async () => {
    const reply = await post(USERS, {
      email: 'full@acme.example',
      firstName: 'Full',
      lastName: 'Fields',
      displayName: 'Full F.',
      phoneNumber: '+44 20 7946 0958',
      timeZone: 'Europe/Berlin',
    });
    expect(reply.status).toBe(201);
    expect(reply.json()).toMatchObject({ displayName: 'Full F.', phoneNumber: '+44 20 7946 0958', timeZone: 'Europe/Berlin' });
    expect((await post(USERS, { email: 'nulls@acme.example', firstName: 'N', lastName: 'Ull', timeZone: null })).status).toBe(201);
  });

  it('adds a user of another tenant as a member here (201), then 409', async () => {
    expect((await post(USERS, { email: BOB, firstName: 'Bob', lastName: 'Baker' })).status).toBe(201);
    expect((await post(USERS, { email: BOB, firstName: 'Bob', lastName: 'Baker' })).status).toBe(409);
  });

  it.each([
    ['missing email', { firstName: 'A', lastName: 'B' }],
    ['missing firstName', { email: 'x1@acme.example', lastName: 'B' }],
    ['missing lastName', { email: 'x2@acme.example', firstName: 'A' }],
    ['email not a string', { email: 5, firstName: 'A', lastName: 'B' }],
    ['email not an address', { email: 'not-an-address', firstName: 'A', lastName: 'B' }],
    ['firstName not a string', { email: 'x3@acme.example', firstName: ['A'], lastName: 'B' }],
    ['blank lastName', { email: 'x4@acme.example', firstName: 'A', lastName: '  ' }],
    ['displayName not a string', { email: 'x5@acme.example', firstName: 'A', lastName: 'B', displayName: 1 }],
    ['phoneNumber not a string', { email: 'x6@acme.example', firstName: 'A', lastName: 'B', phoneNumber: true }],
    ['timeZone not IANA', { email: 'x7@acme.example', firstName: 'A', lastName: 'B', timeZone: 'Mars/Olympus' }],
    ['timeZone an offset', { email: 'x8@acme.example', firstName: 'A', lastName: 'B', timeZone: '+01:00' }],
    ['control character', { email: 'x9@acme.example', firstName: 'A\u0000', lastName: 'B' }],
    ['lone surrogate', { email: 'x10@acme.example', firstName: '\ud800', lastName: 'B' }],
    ['array body', [1, 2]],
    ['null body', null],
  ])('refuses %s with 400', async (_name, json) => {
    const reply = await post(USERS, json);
    expect(reply.status).toBe(400);
    problem(reply);
  });

  it('refuses malformed JSON (400) and other media types (415)', async () => {
    const headers = { ...partnerKey(server), 'content-type': 'application/json' };
    const malformed = await call(server, 'acme', 'POST', USERS, { headers, body: '{"email": "a@b.c",' });
    expect(malformed.status).toBe(400);
    expect(problem(malformed).type).toBe('urn:tack:problem:malformed_json');
    const form = await call(server, 'acme', 'POST', USERS, { headers: { ...partnerKey(server), 'content-type': 'text/plain' }, body: '{}' });
    expect(form.status).toBe(415);
    problem(form);
  });
});

describe('§4.1 reset password', () => {
  const reset = (email: string, tenant = 'acme', headers = partnerKey(server, tenant as 'acme')) =>
    call(server, tenant, 'POST', `/api/admin/users/${email}/reset-password`, { headers });

  it('returns an absolute action URL on the tenant host, whatever the Host header says', async () => {
    const reply = await reset(encodeURIComponent(ALICE));
    expect(reply.status).toBe(200);
    const { actionUrl, expiresAt } = reply.json<{ actionUrl: string; expiresAt: string }>();
    const url = new URL(actionUrl);
    expect(url.origin).toBe(server.urls.tenants['acme']);
    expect(url.pathname).toBe('/account/reset-password');
    expect(url.searchParams.get('token')).toMatch(/^rp1\./);
    expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now());
  });

  it('answers 404 for a user of another tenant or nobody, 401 without the key', async () => {
    await hook(server, 'POST', '/tenants/globex/users', { email: 'only@globex.example', firstName: 'O', lastName: 'G', signIn: 'direct' });
    expect((await reset('only%40globex.example')).status).toBe(404);
    expect((await reset('nobody%40x.example')).status).toBe(404);
    expect((await reset(encodeURIComponent(ALICE), 'acme', {})).status).toBe(401);
  });

  it('handles odd path segments as 4xx problems', async () => {
    for (const segment of ['%E0%A4%A', '%ED%A0%80', '%FF', '%', 'a%2Fb', '%00', encodeURIComponent('ü@ß.example'), '\u00e9'.normalize('NFD')]) {
      const reply = await reset(segment);
      expect(reply.status === 400 || reply.status === 404).toBe(true);
      problem(reply);
    }
  });
});
