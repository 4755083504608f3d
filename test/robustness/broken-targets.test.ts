/**
 * `tack run` against targets that are broken in the ways real environments break. Each case ends
 * in bounded time, says what is wrong in words a person understands (naming the host), and keeps
 * `error` (tack could not check) apart from `failed` (the target answered wrongly):
 *
 * - no usable HTTP at all (refused, silent, closing, not HTTP, too slow, 503): the preflight ends
 *   the run at once with a coded error, exit 2, nothing checked;
 * - HTTP answers that are wrong (500, HTML or garbage with 200): the target is up, so the rules it
 *   answers wrongly are `failed`, exit 1;
 * - a target that breaks after the preflight: the rules it could not answer are `error`, exit 2.
 *
 * Bounds on wall time and the request timeouts given to targets that answer scale with the machine's
 * load (../helpers/time-limits.ts): a busy machine must not turn an answer into a timeout.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand, type RunCommandOptions } from '../../src/cli/conformance-run.js';
import { type ErrorCode, isTackError } from '../../src/harness/errors.js';
import { type BrokenServer, closedPort, type Misbehaviour, PREFLIGHT_REQUESTS, startBroken, targetEnv, timeoutWords } from './broken-servers.js';
import { scaled } from '../helpers/time-limits.js';
import { SELF_SIGNED_CERT, SELF_SIGNED_KEY } from './tls-fixture.js';

/** Rules of one test that needs no setup on the target (search without a valid token). */
const ONLY = ['ACCESS-TOKEN-REQUIRED', 'ACCESS-WWW-AUTHENTICATE'];

let reports: string;
beforeAll(() => {
  reports = mkdtempSync(join(tmpdir(), 'tack-broken-'));
});
afterAll(() => rmSync(reports, { recursive: true, force: true }));

interface Outcome {
  readonly exit: number;
  readonly code: ErrorCode | undefined;
  readonly message: string;
  readonly output: string;
  readonly ms: number;
}

async function run(env: Record<string, string>, extra: Partial<RunCommandOptions> = {}): Promise<Outcome> {
  let output = '';
  const started = performance.now();
  const opts: RunCommandOptions = { only: ONLY, runs: 2, strict: false, reports, fault: [], quiet: false, seed: 7, ...extra };
  try {
    const exit = await runCommand(opts, (s) => (output += s), env);
    return { exit, code: undefined, message: '', output, ms: performance.now() - started };
  } catch (error) {
    if (!isTackError(error)) throw error;
    return { exit: error.exitCode, code: error.code, message: error.message, output, ms: performance.now() - started };
  }
}

/** Console lines of rules with this status mark (`!` error, `✘` failed). */
function ruleLines(output: string, mark: '!' | '✘' | '✔'): string[] {
  return output.split('\n').filter((l) => l.startsWith(`${mark} `) && /\[(MUST|SHOULD)\]/.test(l));
}

async function withBroken<T>(mode: Misbehaviour, options: Parameters<typeof startBroken>[1], body: (s: BrokenServer) => Promise<T>): Promise<T> {
  const server = await startBroken(mode, options);
  try {
    return await body(server);
  } finally {
    await server.close();
  }
}

describe('a target with no usable HTTP ends the run at once: exit 2, the host named, nothing checked', () => {
  it('refuses connections (closed port)', async () => {
    const port = await closedPort();
    const out = await run(targetEnv(`http://acme.localhost:${port}`, `http://id.localhost:${port}/realms/payroll`));
    expect(out.exit).toBe(2);
    expect(out.code).toBe('TACK_ERR_UNREACHABLE');
    expect(out.message).toContain(`tenant host http://acme.localhost:${port} refused the connection`);
    expect(out.message).toMatch(/[Nn]othing was checked/);
    expect(out.ms).toBeLessThan(scaled(3_000));
  });

  const cases: [Misbehaviour, ErrorCode, string][] = [
    ['hang', 'TACK_ERR_TIMEOUT', 'did not answer within'],
    ['slow', 'TACK_ERR_TIMEOUT', 'did not answer within'],
    ['close', 'TACK_ERR_BAD_RESPONSE', 'closed the connection before answering'],
    ['close-mid-response', 'TACK_ERR_BAD_RESPONSE', 'closed the connection in the middle of its answer'],
    ['not-http', 'TACK_ERR_BAD_RESPONSE', 'not HTTP'],
    ['status-503', 'TACK_ERR_UNREACHABLE', 'answered 503 Service Unavailable'],
  ];
  for (const [mode, code, words] of cases) {
    it(`${mode}: ${code}`, async () => {
      await withBroken(mode, {}, async (server) => {
        const env = server.env();
        const out = await run(env);
        expect(out.exit).toBe(2);
        expect(out.code).toBe(code);
        expect(out.message).toContain(`tenant host http://acme.localhost:${server.port}`);
        expect(out.message).toContain(code === 'TACK_ERR_TIMEOUT' ? timeoutWords(env) : words);
        expect(out.ms).toBeLessThan(scaled(3_000));
      });
    });
  }

  it('names the identity server when it is the host that does not answer', async () => {
    await withBroken('status-500', {}, async (tenant) => {
      await withBroken('hang', {}, async (identity) => {
        const env = targetEnv(tenant.url('acme'), identity.url('id', '/realms/payroll'));
        const out = await run(env);
        expect(out.code).toBe('TACK_ERR_TIMEOUT');
        expect(out.message).toContain(`identity server http://id.localhost:${identity.port} ${timeoutWords(env)}`);
        expect(out.exit).toBe(2);
      });
    });
  });

  it('names the test hook when TACK_HOOK_URL refuses connections', async () => {
    const port = await closedPort();
    await withBroken('status-500', {}, async (server) => {
      const out = await run(server.env({ TACK_HOOK_URL: `http://127.0.0.1:${port}/__tack`, TACK_HOOK_TOKEN: 'hook-token-robustness' }));
      expect(out.code).toBe('TACK_ERR_UNREACHABLE');
      expect(out.message).toContain(`test hook http://127.0.0.1:${port} refused the connection`);
      expect(out.message).not.toContain('hook-token-robustness');
    });
  });
});

describe('TLS', () => {
  async function selfSigned(): Promise<{ port: number; close: () => Promise<void> }> {
    const server = createHttpsServer({ cert: SELF_SIGNED_CERT, key: SELF_SIGNED_KEY }, (req, res) => {
      req.resume();
      // A create-user call without fields is refused for its body: the partner key is right (the preflight asks).
      if (req.url === '/api/admin/users') return void res.writeHead(400).end();
      res.writeHead(401, { 'content-type': 'application/problem+json', 'www-authenticate': 'Bearer' });
      res.end(JSON.stringify({ title: 'Unauthorized', status: 401 }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      port: (server.address() as { port: number }).port,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  }

  it('a self-signed certificate: TACK_ERR_UNREACHABLE saying TLS failed and naming TACK_INSECURE_TLS; with it set, the run goes on', async () => {
    const server = await selfSigned();
    try {
      // Nothing here hangs: a request timeout of seconds, so that a TLS handshake on a busy machine is not a timeout.
      const env = targetEnv(`https://acme.localhost:${server.port}`, `https://id.localhost:${server.port}/realms/payroll`, {
        TACK_REQUEST_TIMEOUT_MS: String(scaled(5_000)),
      });
      const refused = await run(env);
      expect(refused.code).toBe('TACK_ERR_UNREACHABLE');
      expect(refused.message).toMatch(/TLS failed \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)\)/);
      expect(refused.message).toContain('TACK_INSECURE_TLS=1');
      const accepted = await run({ ...env, TACK_INSECURE_TLS: '1' });
      expect(accepted.code).toBeUndefined();
      expect(ruleLines(accepted.output, '!')).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('the command line', () => {
  it(
    "npx -- tack run --env-file naming a missing file, as the README says: TACK_ERR_ENV_FILE and exit 2, not Node's own message and exit 9",
    async () => {
      // Run as a user runs it in this folder. npx is itself a Node script: without the `--`, Node 20 reads
      // `--env-file` from npx's own arguments and stops with its own message (exit 9) before npx starts.
      const child = spawn('npx', ['--yes', '--', 'tack', 'run', '--env-file', '/nonexistent/uat.env', '--reports-dir', reports], {
        cwd: new URL('../../', import.meta.url).pathname,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', npm_config_update_notifier: 'false' },
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code, stderr).toBe(2);
      expect(stderr).toContain('tack: TACK_ERR_ENV_FILE: --env-file /nonexistent/uat.env could not be read');
    },
    scaled(30_000),
  );

  it(
    'node bin/tack.mjs run against a closed port: exit 2, the coded error on stderr',
    async () => {
      const port = await closedPort();
      const env = targetEnv(`http://acme.localhost:${port}`, `http://id.localhost:${port}/realms/payroll`);
      const child = spawn(process.execPath, ['bin/tack.mjs', 'run', '--reports-dir', reports], {
        cwd: new URL('../../', import.meta.url).pathname,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code, stderr).toBe(2);
      expect(stderr).toContain(`tack: TACK_ERR_UNREACHABLE: tenant host http://acme.localhost:${port} refused the connection`);
      expect(stderr).not.toContain(env.TACK_PARTNER_SECRET!);
    },
    scaled(30_000),
  );
});

describe('a target that answers wrongly is up: its rules are failed, not error (exit 1)', () => {
  for (const mode of ['html-200', 'garbage-200', 'status-500'] as const) {
    it(mode, async () => {
      await withBroken(mode, {}, async (server) => {
        // Nothing here hangs: a request timeout of seconds, so that a busy machine cannot turn an answer into a timeout.
        const out = await run(server.env({ TACK_REQUEST_TIMEOUT_MS: String(scaled(5_000)) }));
        expect(out.code).toBeUndefined();
        expect(out.exit).toBe(1);
        expect(ruleLines(out.output, '✘').length).toBeGreaterThan(0);
        expect(ruleLines(out.output, '!')).toEqual([]);
        expect(out.output).toMatch(/expected 401, got (200|500)/);
        expect(out.ms).toBeLessThan(scaled(10_000));
      });
    });
  }
});

describe('a target that breaks after the preflight: the rules it could not answer are error (exit 2)', () => {
  const cases: [Misbehaviour, string][] = [
    ['hang', 'did not answer within'],
    ['slow', 'did not answer within'],
    ['close', 'closed the connection before answering'],
    ['close-mid-response', 'closed the connection in the middle of its answer'],
    ['not-http', 'not HTTP'],
  ];
  for (const [mode, words] of cases) {
    it(mode, async () => {
      await withBroken(mode, { healthyFirst: PREFLIGHT_REQUESTS }, async (server) => {
        const env = server.env();
        const out = await run(env);
        expect(out.code).toBeUndefined();
        expect(out.exit).toBe(2);
        const errors = ruleLines(out.output, '!');
        expect(errors.map((l) => l.split(' ')[1]).sort()).toEqual([...ONLY].sort());
        for (const line of errors) {
          expect(line).toContain(`tenant host http://acme.localhost:${server.port}`);
          expect(line).toContain(mode === 'hang' || mode === 'slow' ? timeoutWords(env) : words);
        }
        expect(ruleLines(out.output, '✘')).toEqual([]);
        expect(out.ms).toBeLessThan(scaled(10_000));
      });
    });
  }

  it('the whole-run deadline (TACK_RUN_DEADLINE_S) ends a run whose requests each stay under their own timeout', async () => {
    await withBroken('slow', { healthyFirst: PREFLIGHT_REQUESTS, slowMs: 400 }, async (server) => {
      const out = await run(server.env({ TACK_REQUEST_TIMEOUT_MS: String(scaled(5_000)), TACK_RUN_DEADLINE_S: '1' }));
      expect(out.exit).toBe(2);
      // The rules it did not finish are `error` (not `failed`), named, and the reports are written.
      const errors = ruleLines(out.output, '!');
      expect(errors.length).toBeGreaterThan(0);
      for (const line of errors) expect(line).toContain('TACK_RUN_DEADLINE_S');
      expect(ruleLines(out.output, '✘')).toEqual([]);
      expect(out.output).toContain('tack: TACK_ERR_RUN_DEADLINE:');
      expect(out.output).toMatch(/Reports: /);
      expect(out.ms).toBeLessThan(scaled(10_000));
    });
  });
});
