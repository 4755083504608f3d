/**
 * `tack doctor`: everything fine against the reference server; each broken input named by the
 * variable to fix; the token file read but never rotated.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createHttpsServer } from 'node:https';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doctorCommand } from '../../src/cli/commands/doctor.js';
import { TokenFileLock } from '../../src/harness/lock.js';
import { type ReferenceServer, startReferenceServer } from '../../src/reference/index.js';
import { closedPort } from './broken-servers.js';
import { SELF_SIGNED_CERT, SELF_SIGNED_KEY } from './tls-fixture.js';

let server: ReferenceServer;
let dir: string;

beforeAll(async () => {
  server = await startReferenceServer();
  dir = mkdtempSync(join(tmpdir(), 'tack-doctor-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function doctor(env: Record<string, string>): Promise<{ exit: number; out: string }> {
  let out = '';
  const exit = await doctorCommand({}, (s) => (out += s), env);
  return { exit, out };
}

/** The reference server's variables in hook mode (no token file). */
function hookEnv(): Record<string, string> {
  const env: Record<string, string> = { ...server.env };
  delete env.TACK_USER_EMAIL;
  delete env.TACK_API_TOKEN_FILE;
  return env;
}

/** Exchanges `token` at the reference sign-in server, over HTTP; returns the status and the new token. */
async function exchange(token: string): Promise<{ status: number; refreshToken?: string }> {
  const res = await request(`http://127.0.0.1:${server.port}/realms/payroll/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { host: `id.localhost:${server.port}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', client_id: 'payroll-portal', refresh_token: token }).toString(),
  });
  const body = (await res.body.json().catch(() => ({}))) as { refresh_token?: string };
  return { status: res.statusCode, ...(body.refresh_token ? { refreshToken: body.refresh_token } : {}) };
}

describe('tack doctor', () => {
  it('against the built-in reference server (no variables at all): everything is fine', async () => {
    const { exit, out } = await doctor({});
    expect(out).toContain('(built-in reference server)');
    expect(out).toContain('Everything is fine');
    expect(out).not.toContain('✘');
    expect(out).toMatch(/a run would check \d+ of \d+ rules/);
    expect(exit).toBe(0);
  });

  it('a wrong TACK_PARTNER_SECRET is named, and the secret is not printed', async () => {
    const { exit, out } = await doctor({ ...hookEnv(), TACK_PARTNER_SECRET: 'not-the-secret-0123456789' });
    expect(exit).toBe(2);
    expect(out).toMatch(
      /✘ tenant A's partner key was refused .*\(401 to a mint and to a create-user call\): check TACK_PARTNER_CLIENT_ID and TACK_PARTNER_SECRET/,
    );
    expect(out).not.toContain('not-the-secret-0123456789');
    expect(out).not.toContain(server.env.TACK_OTHER_PARTNER_SECRET!);
    expect(out).toContain('1 problem');
  });

  it('an unreachable tenant host is named; checks that need it are not tried', async () => {
    const port = await closedPort();
    const { exit, out } = await doctor({ ...hookEnv(), TACK_BASE_URL: `http://acme.localhost:${port}` });
    expect(exit).toBe(2);
    expect(out).toContain(`✘ tenant host http://acme.localhost:${port} refused the connection`);
    expect(out).toContain(`tenant A's partner key: not tried (http://acme.localhost:${port} is not reachable)`);
  });

  it('a sign-in URL without the realm path names TACK_IDENTITY_URL', async () => {
    const { exit, out } = await doctor({ ...hookEnv(), TACK_IDENTITY_URL: `http://id.localhost:${server.port}/realms/nope` });
    expect(exit).toBe(2);
    expect(out).toMatch(
      /✘ no token endpoint at .*\/realms\/nope\/protocol\/openid-connect\/token \(\d+\): TACK_IDENTITY_URL must be the sign-in server with its realm path/,
    );
  });

  it('a wrong TACK_HOOK_TOKEN is named, and the rules that need the hook are listed as skipped with the reason', async () => {
    const { exit, out } = await doctor({ ...hookEnv(), TACK_HOOK_TOKEN: 'wrong-hook-token-0123456789' });
    expect(exit).toBe(2);
    expect(out).toMatch(/✘ the test hook at .* refused TACK_HOOK_TOKEN \(401\)/);
    expect(out).not.toContain('wrong-hook-token-0123456789');
    expect(out).toMatch(/needs the test hook, which is not usable/);
  });

  it('a self-signed certificate is a TLS problem naming TACK_INSECURE_TLS; with it set, a warning', async () => {
    const tls = createHttpsServer({ cert: SELF_SIGNED_CERT, key: SELF_SIGNED_KEY }, (req, res) => {
      req.resume();
      res.writeHead(401);
      res.end();
    });
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    const port = (tls.address() as { port: number }).port;
    try {
      const env = { TACK_BASE_URL: `https://acme.localhost:${port}`, TACK_IDENTITY_URL: `https://id.localhost:${port}/realms/payroll` };
      let r = await doctor(env);
      expect(r.exit).toBe(2);
      expect(r.out).toMatch(
        new RegExp(
          `✘ acme.localhost:${port} \\(TACK_BASE_URL\\): TLS failed \\(.*SELF_SIGNED.*\\); ` +
            'for a sandbox with a self-signed certificate set TACK_INSECURE_TLS=1',
        ),
      );
      r = await doctor({ ...env, TACK_INSECURE_TLS: '1' });
      expect(r.out).toMatch(/⚠ acme.localhost:\d+: certificate not trusted \(.*SELF_SIGNED.*\); accepted only because TACK_INSECURE_TLS=1/);
    } finally {
      tls.closeAllConnections();
      await new Promise<void>((resolve) => tls.close(() => resolve()));
    }
  });

  it('an invalid configuration names the variable (exit 2)', async () => {
    const { exit, out } = await doctor({ TACK_BASE_URL: 'acme.example.com' });
    expect(exit).toBe(2);
    expect(out).toContain(
      'TACK_BASE_URL must be written scheme://host[:port][/path] with scheme http or https (no query, no fragment), ' +
        'e.g. https://acme.uat.example.com; got "acme.example.com"',
    );
  });

  describe('hookless mode', () => {
    it('checks the token file without rotating it', async () => {
      const email = server.userEmail;
      const token = server.issueApiToken('acme', email);
      const file = join(dir, 'api-token');
      writeFileSync(file, `${token}\n`, { mode: 0o600 });
      const env: Record<string, string> = { ...hookEnv(), TACK_USER_EMAIL: email, TACK_API_TOKEN_FILE: file };
      delete env.TACK_HOOK_URL;
      delete env.TACK_HOOK_TOKEN;
      const { exit, out } = await doctor(env);
      expect(out).toContain(`✔ ${file} (user ${email}): readable, holds one token`);
      expect(out).toContain('not exchanged by doctor');
      expect(out).not.toContain(token);
      expect(exit).toBe(0);
      // Not rotated: the file is unchanged and its token is still the live one.
      expect(readFileSync(file, 'utf8')).toBe(`${token}\n`);
      expect((await exchange(token)).status).toBe(200);
    });

    it('a token file another run holds is reported with its holder (a warning: a run would wait)', async () => {
      const file = join(dir, 'held-token');
      writeFileSync(file, `${server.issueApiToken('acme', server.userEmail)}\n`, { mode: 0o600 });
      const env: Record<string, string> = { ...hookEnv(), TACK_USER_EMAIL: server.userEmail, TACK_API_TOKEN_FILE: file };
      const lock = await TokenFileLock.acquire(file);
      try {
        const { exit, out } = await doctor(env);
        expect(out).toContain(`⚠ ${file} is locked by another tack process (pid ${process.pid}`);
        expect(out).toContain('TACK_ERR_TOKEN_FILE_LOCKED');
        expect(exit).toBe(0);
      } finally {
        await lock.release();
      }
    });

    it('an empty token file, a missing one, and a world-readable one', async () => {
      const base = { ...hookEnv(), TACK_USER_EMAIL: server.userEmail };
      const empty = join(dir, 'empty');
      writeFileSync(empty, '\n');
      let r = await doctor({ ...base, TACK_API_TOKEN_FILE: empty });
      expect(r.exit).toBe(2);
      expect(r.out).toContain(`✘ TACK_API_TOKEN_FILE ${empty} must hold exactly one API token (it is empty)`);
      r = await doctor({ ...base, TACK_API_TOKEN_FILE: join(dir, 'missing') });
      expect(r.exit).toBe(2);
      expect(r.out).toContain('could not be read (ENOENT)');
      const open = join(dir, 'open');
      writeFileSync(open, 'tpat_something\n', { mode: 0o644 });
      r = await doctor({ ...base, TACK_API_TOKEN_FILE: open });
      expect(r.out).toMatch(/⚠ .*open: mode 0644: other users can read it/);
    });
  });
});
