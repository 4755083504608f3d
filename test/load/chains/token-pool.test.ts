/**
 * Hookless mode: chains come from a token pool file, and the file is rewritten with every chain's
 * rotated token, so it still holds live tokens after the run. With --shard i/n a runner takes only
 * its lines (i, i+n, ...) and leaves the others untouched.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../../src/reference/index.js';
import { dir, load } from '../helpers.js';

let server: ReferenceServer;

beforeAll(async () => {
  server = await startReferenceServer();
});
afterAll(() => server.close());

async function hook(path: string, body: unknown): Promise<unknown> {
  const res = await request(`${server.env.TACK_HOOK_URL}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.env.TACK_HOOK_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.statusCode).toBe(201);
  return res.body.json();
}

async function exchange(token: string): Promise<number> {
  const res = await request(`http://127.0.0.1:${server.port}/realms/payroll/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { host: `id.localhost:${server.port}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', client_id: 'payroll-portal', refresh_token: token }).toString(),
  });
  await res.body.text();
  return res.statusCode;
}

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '');

describe('--token-pool (hookless mode)', () => {
  it('rewrites each shard’s lines with the rotated tokens; the file ends up holding live tokens', async () => {
    const original: string[] = [];
    for (let i = 0; i < 4; i++) {
      const email = `pool-${i}-${Date.now()}@example.com`;
      await hook('/tenants/acme/users', { email, firstName: 'Pool', lastName: `User${i}`, signIn: 'direct' });
      original.push(((await hook(`/tenants/acme/users/${encodeURIComponent(email)}/api-tokens`, {})) as { apiToken: string }).apiToken);
    }
    const pool = join(dir, 'pool.txt');
    writeFileSync(pool, `${original[0]}\n${original[1]}\n\n${original[2]}\n${original[3]}\n`, { mode: 0o600 });
    // A remote-style target on loopback with no hook: TACK_BASE_URL set, TACK_HOOK_* not.
    const env = { TACK_BASE_URL: server.env.TACK_BASE_URL, TACK_IDENTITY_URL: server.env.TACK_IDENTITY_URL };

    const first = await load('exchange', { duration: '700ms', connections: 4, shard: '1/2', tokenPool: pool, threshold: ['errors==0'] }, env);
    expect(first.exitCode).toBe(0);
    expect(first.result.settings.chains).toBe('pool');
    expect(first.result.settings.connections).toBe(2);
    let now = lines(pool);
    expect(now).toHaveLength(4);
    expect([now[0] !== original[0], now[1] === original[1], now[2] !== original[2], now[3] === original[3]]).toEqual([true, true, true, true]);

    const second = await load('exchange', { duration: '700ms', connections: 4, shard: '2/2', tokenPool: pool, threshold: ['errors==0'] }, env);
    expect(second.exitCode).toBe(0);
    now = lines(pool);
    expect(now.every((t, i) => t !== original[i])).toBe(true);
    expect(first.output + second.output + first.json + second.json).not.toMatch(/tpat_/);

    // The rotated-out tokens are dead; the ones in the file are live.
    expect(await exchange(original[0]!)).toBe(400);
    for (const token of now) expect(await exchange(token)).toBe(200);
  });

  it('without a hook and without a pool, says how to give one', async () => {
    const env = { TACK_BASE_URL: server.env.TACK_BASE_URL, TACK_IDENTITY_URL: server.env.TACK_IDENTITY_URL };
    await expect(load('exchange', { duration: '500ms' }, env)).rejects.toThrow(/--token-pool FILE or TACK_LOAD_TOKEN_POOL/);
  });
});
