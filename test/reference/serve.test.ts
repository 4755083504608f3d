/** `tack serve`: env file, hookless token file, console without secrets, fault listing, clean stop. */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'dotenv';
import { describe, expect, it } from 'vitest';
import { listFaults, READY_PREFIX, serveCommand, type ServeOptions, toDotenv } from '../../src/cli/commands/serve.js';
import { FAULTS } from '../../src/reference/index.js';
import { isTackError } from '../../src/harness/errors.js';
import { request } from 'undici';

function options(dir: string, extra: Partial<ServeOptions> = {}): ServeOptions {
  return { port: 0, bind: '127.0.0.1', fault: [], listFaults: false, envOut: join(dir, 'reference.env'), hookless: false, ...extra };
}

/** Runs the command until `whileRunning` is done, then stops it as a signal would. */
async function serveWhile(opts: ServeOptions, whileRunning: (env: Record<string, string>, output: string) => Promise<void>): Promise<string> {
  let output = '';
  let stop: (signal: string) => void = () => undefined;
  const stopped = new Promise<string>((resolve) => (stop = resolve));
  const running = serveCommand(
    opts,
    (s) => (output += s),
    () => stopped,
  );
  for (let i = 0; i < 200 && !output.includes('Stop with Ctrl-C'); i++) await new Promise((r) => setTimeout(r, 10));
  try {
    await whileRunning(parse(readFileSync(opts.envOut)), output);
  } finally {
    stop('SIGTERM');
    await running;
  }
  return output;
}

describe('tack serve', () => {
  it('writes a 0600 env file with every TACK_* variable, and prints hosts but no secret', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tack-serve-'));
    const opts = options(dir);
    let env: Record<string, string> = {};
    const output = await serveWhile(opts, async (written) => {
      env = written;
      expect(statSync(opts.envOut).mode & 0o777).toBe(0o600);
      expect(Object.keys(env).sort()).toEqual(
        [
          'TACK_BASE_URL',
          'TACK_IDENTITY_URL',
          'TACK_PARTNER_CLIENT_ID',
          'TACK_PARTNER_SECRET',
          'TACK_PARTNER_HEADERS',
          'TACK_OTHER_BASE_URL',
          'TACK_OTHER_PARTNER_CLIENT_ID',
          'TACK_OTHER_PARTNER_SECRET',
          'TACK_CLIENT_ID',
          'TACK_HOOK_URL',
          'TACK_HOOK_TOKEN',
        ].sort(),
      );
      const hookReply = await request(`${env['TACK_HOOK_URL']}/`, { headers: { authorization: `Bearer ${env['TACK_HOOK_TOKEN']}` } });
      expect(hookReply.statusCode).toBe(200);
      await hookReply.body.text();
    });
    for (const secret of [env['TACK_PARTNER_SECRET'], env['TACK_OTHER_PARTNER_SECRET'], env['TACK_HOOK_TOKEN']]) {
      expect(secret).toBeTruthy();
      expect(output).not.toContain(secret);
    }
    expect(output).toContain(env['TACK_BASE_URL']);
    expect(output).toContain(env['TACK_IDENTITY_URL']);
    expect(output).toContain(`tack run --env-file ${opts.envOut}`);
    expect(output).toMatch(/SIGTERM: stopping/);
  });

  it('--hookless: no hook variables, a 0600 API token file of the seeded user that exchanges', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tack-serve-'));
    const opts = options(dir, { hookless: true });
    const output = await serveWhile(opts, async (env) => {
      expect(env['TACK_HOOK_URL']).toBeUndefined();
      expect(env['TACK_HOOK_TOKEN']).toBeUndefined();
      expect(env['TACK_USER_EMAIL']).toBe('alice@acme.example');
      expect(env['TACK_USER_PASSWORD']).toBe('tack-reference-password');
      const file = env['TACK_API_TOKEN_FILE'] ?? '';
      expect(file).toBe(join(dir, 'reference.api-token'));
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const token = readFileSync(file, 'utf8');
      expect(token).toMatch(/^tpat_\S+$/);
      const port = new URL(env['TACK_IDENTITY_URL'] ?? '').port;
      const reply = await request(`http://127.0.0.1:${port}/realms/payroll/protocol/openid-connect/token`, {
        method: 'POST',
        headers: { host: `id.localhost:${port}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', client_id: 'payroll-portal', refresh_token: token }).toString(),
      });
      expect(reply.statusCode).toBe(200);
      await reply.body.text();
    });
    expect(output).not.toContain('test hook');
    expect(output).toContain('reference.api-token');
    expect(output).not.toContain('tack-reference-password');
  });

  it('--store-delay-ms: the token store answers each rotation after that wait, and says so; a race fault brings 3 ms', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tack-serve-'));
    const output = await serveWhile(options(dir, { storeDelayMs: 40 }), async (env) => {
      const token = async () => {
        const reply = await request(`${env['TACK_HOOK_URL']}/tenants/acme/users/${encodeURIComponent('alice@acme.example')}/api-tokens`, {
          method: 'POST',
          headers: { authorization: `Bearer ${env['TACK_HOOK_TOKEN']}`, 'content-type': 'application/json' },
          body: '{}',
        });
        return ((await reply.body.json()) as { apiToken: string }).apiToken;
      };
      const form = new URLSearchParams({ grant_type: 'refresh_token', client_id: 'payroll-portal', refresh_token: await token() }).toString();
      const started = performance.now();
      const port = new URL(env['TACK_IDENTITY_URL']!).port;
      const reply = await request(`http://127.0.0.1:${port}/realms/payroll/protocol/openid-connect/token`, {
        method: 'POST',
        headers: { host: `id.localhost:${port}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
      });
      await reply.body.text();
      expect([reply.statusCode, performance.now() - started >= 39]).toEqual([200, true]);
    });
    expect(output).toContain('the token store answers each rotation after 40 ms');
    const raced = await serveWhile(options(dir, { fault: ['rotation-forks-under-overlap'] }), async () => undefined);
    expect(raced).toContain('after 3 ms');
  });

  it('--list-faults prints every fault with its rules', async () => {
    let output = '';
    await serveCommand(
      options(tmpdir(), { listFaults: true }),
      (s) => (output += s),
      () => Promise.resolve('unused'),
    );
    expect(output).toBe(listFaults());
    for (const fault of FAULTS) {
      expect(output).toContain(fault.name);
      expect(output).toContain(fault.description);
      for (const rule of fault.rules) expect(output).toContain(rule);
    }
  });

  it('refuses an unknown fault as a usage error naming the valid ones', async () => {
    const error = await serveCommand(
      options(tmpdir(), { fault: ['nope'] }),
      () => undefined,
      () => Promise.resolve('x'),
    ).catch((e: unknown) => e);
    expect(isTackError(error, 'TACK_ERR_USAGE')).toBe(true);
    expect(String((error as Error).message)).toMatch(/Unknown fault: nope.*revoke-no-op.*--list-faults/);
  });

  it('writes dotenv that dotenv reads back', () => {
    const env = { A: 'http://x:1/y', B: 'a b', C: 'Tenant-Key-1,Tenant-Key-2' };
    expect(parse(toDotenv(env))).toEqual(env);
  });

  it('for scripts: a pid file, a JSON ready line, and on SIGTERM exit 0 with nothing left behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tack-serve-'));
    const envOut = join(dir, 'r.env');
    const pidFile = join(dir, 'serve.pid');
    const args = ['--', 'bin/tack.mjs', 'serve', '--port', '0', '--hookless', '--env-out', envOut, '--pid-file', pidFile];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let ready: { envFile: string; pid: number; hook: string | null } | undefined;
    let seenWhileRunning: boolean[] = [];
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith(READY_PREFIX));
      // One SIGTERM only: a second one, after the handler is gone, would kill the process itself.
      if (line && !ready) {
        ready = JSON.parse(line.slice(READY_PREFIX.length)) as typeof ready;
        seenWhileRunning = [existsSync(envOut), existsSync(join(dir, 'r.api-token')), readFileSync(pidFile, 'utf8').trim() === String(child.pid)];
        child.kill('SIGTERM');
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(ready).toMatchObject({ envFile: envOut, pid: child.pid, hook: null });
    expect(seenWhileRunning).toEqual([true, true, true]);
    expect(out).toContain('stopping the reference server');
    expect(code).toBe(0);
    expect([existsSync(envOut), existsSync(join(dir, 'r.api-token')), existsSync(pidFile)]).toEqual([false, false, false]);
  });
});
