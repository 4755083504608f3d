/** Spec §3, §4.2, §8: the sign-in server, the API-token lifecycle, judged by the hook's clock. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceServer } from '../../src/reference/index.js';
import { ALICE, DAY_SECONDS, advance, apiToken, call, exchange, hook, revoke, search, start } from './helpers.js';

let server: ReferenceServer;
beforeAll(async () => {
  server = await start();
});
afterAll(() => server.close());

const TOKEN = '/realms/payroll/protocol/openid-connect/token';
const REVOKE = '/realms/payroll/protocol/openid-connect/revoke';

interface TokenBody {
  access_token: string;
  expires_in: number;
  token_type: string;
  refresh_token: string;
}

async function exchangeOk(token: string): Promise<TokenBody> {
  const reply = await exchange(server, token);
  expect(reply.status, reply.text).toBe(200);
  return reply.json<TokenBody>();
}

async function expectInvalidGrant(token: string): Promise<void> {
  const reply = await exchange(server, token);
  expect(reply.status).toBe(400);
  expect(reply.headers['content-type']).toBe('application/json');
  expect(reply.json()).toMatchObject({ error: 'invalid_grant' });
  expect(reply.headers['cache-control']).toBe('no-store');
}

describe('§4.2 token exchange', () => {
  it('returns access_token, expires_in 300, token_type Bearer and a new refresh_token, no-store', async () => {
    const token = await apiToken(server);
    const reply = await exchange(server, token);
    expect(reply.status).toBe(200);
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(reply.headers['pragma']).toBe('no-cache');
    const body = reply.json<TokenBody>();
    expect(body.expires_in).toBe(300);
    expect(body.token_type).toBe('Bearer');
    expect(body.refresh_token).not.toBe(token);
    expect((await search(server, 'acme', body.access_token)).status).toBe(200);
  });

  it('rotates: each replacement exchanges in turn; a rotated-out token is refused once its successor was used', async () => {
    let token = await apiToken(server);
    const seen = [token];
    for (let i = 0; i < 5; i++) {
      token = (await exchangeOk(token)).refresh_token;
      seen.push(token);
    }
    expect(new Set(seen).size).toBe(seen.length);
    for (const old of seen.slice(0, -2)) await expectInvalidGrant(old);
    await exchangeOk(token);
    await expectInvalidGrant(seen.at(-2)!);
  });

  it('keeps the token just rotated out until its successor is used (an answer lost in flight)', async () => {
    const stored = await apiToken(server);
    const lost = (await exchangeOk(stored)).refresh_token;
    const again = (await exchangeOk(stored)).refresh_token;
    await expectInvalidGrant(lost);
    await exchangeOk(again);
    await expectInvalidGrant(stored);
  });

  it('holds concurrent exchanges on different chains', async () => {
    const tokens = await Promise.all(Array.from({ length: 20 }, () => apiToken(server)));
    const replies = await Promise.all(tokens.map((t) => exchange(server, t)));
    expect(replies.map((r) => r.status)).toEqual(tokens.map(() => 200));
  });

  it('refuses a token that was never issued with invalid_grant', async () => {
    const real = await apiToken(server);
    const flipped = real.slice(0, 10) + (real[10] === 'A' ? 'B' : 'A') + real.slice(11);
    for (const garbage of ['garbage', 'tpat_x', flipped, real.toUpperCase(), `${real}=`]) await expectInvalidGrant(garbage);
  });

  it.each([
    ['no grant_type', { client_id: 'payroll-portal', refresh_token: 'x' }, 'invalid_request'],
    ['another grant_type', { grant_type: 'password', client_id: 'payroll-portal', refresh_token: 'x' }, 'unsupported_grant_type'],
    ['no client_id', { grant_type: 'refresh_token', refresh_token: 'x' }, 'invalid_request'],
    ['an unknown client_id', { grant_type: 'refresh_token', client_id: 'someone-else', refresh_token: 'x' }, 'invalid_client'],
    ['no refresh_token', { grant_type: 'refresh_token', client_id: 'payroll-portal' }, 'invalid_request'],
    ['an empty refresh_token', { grant_type: 'refresh_token', client_id: 'payroll-portal', refresh_token: '' }, 'invalid_request'],
  ])('refuses %s with 400 %s', async (_name, form, error) => {
    const reply = await call(server, 'id', 'POST', TOKEN, { form: form as Record<string, string> });
    expect(reply.status).toBe(400);
    expect(reply.json()).toMatchObject({ error, error_description: expect.any(String) });
  });

  it('accepts form encoding only, and refuses repeated parameters', async () => {
    const token = await apiToken(server);
    const json = await call(server, 'id', 'POST', TOKEN, { json: { grant_type: 'refresh_token', client_id: 'payroll-portal', refresh_token: token } });
    expect(json.status).toBe(400);
    expect(json.json()).toMatchObject({ error: 'invalid_request' });
    const twice = await call(server, 'id', 'POST', TOKEN, {
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
      body: `grant_type=refresh_token&client_id=payroll-portal&refresh_token=${encodeURIComponent(token)}&refresh_token=x`,
    });
    expect(twice.status).toBe(400);
    await exchangeOk(token);
  });

  it('answers 404 outside the realm and 405 to other methods, as problems', async () => {
    expect((await call(server, 'id', 'POST', '/protocol/openid-connect/token', { form: {} })).status).toBe(404);
    expect((await call(server, 'id', 'POST', '/realms/other/protocol/openid-connect/token', { form: {} })).status).toBe(404);
    const get = await call(server, 'id', 'GET', TOKEN);
    expect(get.status).toBe(405);
    expect(get.headers['allow']).toBe('POST');
    expect(get.headers['content-type']).toBe('application/problem+json');
  });
});

describe('§4.2 no cross-origin access', () => {
  it('sends no Access-Control-Allow-* header, and refuses the preflight', async () => {
    const origin = { origin: 'https://evil.example' };
    const preflight = await call(server, 'id', 'OPTIONS', TOKEN, {
      headers: { ...origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(405);
    const token = await apiToken(server);
    const post = await call(server, 'id', 'POST', TOKEN, {
      headers: origin,
      form: { grant_type: 'refresh_token', client_id: 'payroll-portal', refresh_token: token },
    });
    expect(post.status).toBe(200);
    for (const reply of [preflight, post]) {
      expect(Object.keys(reply.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    }
  });
});

describe('§4.2 revoke', () => {
  it('answers 200 with an empty body; the token is then invalid_grant', async () => {
    const token = await apiToken(server);
    const reply = await revoke(server, token);
    expect(reply.status).toBe(200);
    expect(reply.text).toBe('');
    expect(reply.headers['content-length']).toBe('0');
    await expectInvalidGrant(token);
  });

  it('answers 200 for unknown, already revoked and rotated-out tokens (RFC 7009)', async () => {
    const token = await apiToken(server);
    const next = (await exchangeOk(token)).refresh_token;
    for (const t of [token, 'unknown', next, next]) {
      const reply = await revoke(server, t);
      expect(reply.status).toBe(200);
      expect(reply.text).toBe('');
    }
    await expectInvalidGrant(next);
  });

  it('needs the client id and a token', async () => {
    const noClient = await call(server, 'id', 'POST', REVOKE, { form: { token: 'x' } });
    expect(noClient.json()).toMatchObject({ error: 'invalid_request' });
    const wrongClient = await call(server, 'id', 'POST', REVOKE, { form: { client_id: 'x', token: 'x' } });
    expect(wrongClient.json()).toMatchObject({ error: 'invalid_client' });
    const noToken = await call(server, 'id', 'POST', REVOKE, { form: { client_id: 'payroll-portal' } });
    expect(noToken.status).toBe(400);
  });
});

describe('§3 §8 lifecycle with the hook clock', () => {
  // Each test runs on its own server: the clock only moves forward.
  async function fresh(): Promise<ReferenceServer> {
    return start();
  }

  it('30 days unused: just before it exchanges, at 30 days it is invalid_grant', async () => {
    const s = await fresh();
    try {
      const a = await apiToken(s);
      const b = await apiToken(s);
      await advance(s, 30 * DAY_SECONDS - 5);
      expect((await exchange(s, a)).status).toBe(200);
      await advance(s, 5);
      const expired = await exchange(s, b);
      expect(expired.status).toBe(400);
      expect(expired.json()).toMatchObject({ error: 'invalid_grant' });
    } finally {
      await s.close();
    }
  });

  it('each exchange restarts the 30-day clock', async () => {
    const s = await fresh();
    try {
      let token = await apiToken(s);
      for (let i = 0; i < 3; i++) {
        await advance(s, 20 * DAY_SECONDS);
        const reply = await exchange(s, token);
        expect(reply.status).toBe(200);
        token = reply.json<TokenBody>().refresh_token;
      }
    } finally {
      await s.close();
    }
  });

  it('90 days from generation, however often used, never extended by rotation', async () => {
    const s = await fresh();
    try {
      let token = await apiToken(s);
      for (let day = 0; day < 85; day += 17) {
        await advance(s, 17 * DAY_SECONDS);
        const reply = await exchange(s, token);
        expect(reply.status).toBe(200);
        token = reply.json<TokenBody>().refresh_token;
      }
      await advance(s, 5 * DAY_SECONDS - 60); // 89 days 23:59 after generation
      const late = await exchange(s, token);
      expect(late.status).toBe(200);
      token = late.json<TokenBody>().refresh_token;
      await advance(s, 60);
      const over = await exchange(s, token);
      expect(over.status).toBe(400);
      expect(over.json()).toMatchObject({ error: 'invalid_grant' });
    } finally {
      await s.close();
    }
  });

  it('access tokens work for 300 seconds, then 401 with error="invalid_token"', async () => {
    const s = await fresh();
    try {
      const body = (await exchange(s, await apiToken(s))).json<TokenBody>();
      await advance(s, 295);
      expect((await search(s, 'acme', body.access_token)).status).toBe(200);
      await advance(s, 5);
      const expired = await search(s, 'acme', body.access_token);
      expect(expired.status).toBe(401);
      expect(expired.headers['www-authenticate']).toBe('Bearer realm="acme", error="invalid_token"');
    } finally {
      await s.close();
    }
  });

  it('a disabled user: exchange is invalid_grant and access tokens stop working', async () => {
    const s = await fresh();
    try {
      await hook(s, 'POST', '/tenants/acme/users', { email: 'dis@acme.example', firstName: 'D', lastName: 'Is', signIn: 'direct' });
      const token = await apiToken(s, 'dis@acme.example');
      const body = (await exchange(s, token)).json<TokenBody>();
      expect((await hook(s, 'POST', '/users/dis%40acme.example/disable', {})).status).toBe(204);
      const refused = await exchange(s, body.refresh_token);
      expect(refused.status).toBe(400);
      expect(refused.json()).toMatchObject({ error: 'invalid_grant' });
      expect((await search(s, 'acme', body.access_token)).status).toBe(401);
    } finally {
      await s.close();
    }
  });

  it('revoking does not cut off access tokens already issued; they expire on their own', async () => {
    const s = await fresh();
    try {
      const token = await apiToken(s);
      const body = (await exchange(s, token)).json<TokenBody>();
      await revoke(s, body.refresh_token);
      expect((await search(s, 'acme', body.access_token)).status).toBe(200);
      await advance(s, 300);
      expect((await search(s, 'acme', body.access_token)).status).toBe(401);
    } finally {
      await s.close();
    }
  });
});

describe('personal API tokens are per user', () => {
  it('the exchanged access token acts as the user at any tenant the user belongs to', async () => {
    const body = (await exchange(server, await apiToken(server, 'casey@both.example', 'acme'))).json<TokenBody>();
    const acme = await search(server, 'acme', body.access_token);
    const globex = await search(server, 'globex', body.access_token);
    expect(acme.json<{ items: { name: string }[] }>().items.map((i) => i.name)).toEqual(['Acme Anvils Ltd']);
    expect(globex.json<{ items: { name: string }[] }>().items.map((i) => i.name)).toEqual(['Globex Chemicals']);
  });

  it('refuses the user at a tenant they do not belong to (403)', async () => {
    const body = (await exchange(server, await apiToken(server, ALICE))).json<TokenBody>();
    expect((await search(server, 'globex', body.access_token)).status).toBe(403);
  });
});
