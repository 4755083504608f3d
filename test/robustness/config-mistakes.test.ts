/**
 * A mistake in the settings is a configuration error, found before any check (the preflight of
 * `tack run` and `tack certify`): exit 2 within seconds, a `TACK_ERR_*` code, a message that names
 * the variable and the fix, the secret never printed, and the reports written with the error. Each
 * case is a right configuration of the reference server with one thing wrong, as a new user makes it.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/conformance-run.js';
import { type ErrorCode, isTackError } from '../../src/harness/errors.js';
import { type ReferenceServer, startReferenceServer } from '../../src/reference/index.js';
import { scaled } from '../helpers/time-limits.js';

let server: ReferenceServer;
let dir: string;
beforeAll(async () => {
  server = await startReferenceServer();
  dir = mkdtempSync(join(tmpdir(), 'tack-config-mistakes-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The reference server's variables, hook mode. */
function right(): Record<string, string> {
  const { TACK_USER_EMAIL: _u, TACK_API_TOKEN_FILE: _f, ...env } = server.env;
  return env;
}

async function run(env: Record<string, string>): Promise<{ exit: number; code: ErrorCode | undefined; message: string; ms: number; reports: string }> {
  const reports = mkdtempSync(join(dir, 'reports-'));
  const started = performance.now();
  let out = '';
  try {
    const exit = await runCommand({ only: [], runs: 2, strict: false, requireAll: true, reports, fault: [], quiet: true, seed: 5 }, (s) => (out += s), env);
    return { exit, code: undefined, message: out, ms: performance.now() - started, reports };
  } catch (error) {
    if (!isTackError(error)) throw error;
    return { exit: error.exitCode, code: error.code, message: error.message, ms: performance.now() - started, reports };
  }
}

function writtenError(reports: string): unknown {
  const [runDir] = readdirSync(reports);
  return (JSON.parse(readFileSync(join(reports, runDir!, 'results.json'), 'utf8')) as { error?: unknown }).error;
}

describe('a mistake in the settings stops a run before any check: exit 2, the variable named', () => {
  const secret = 'not-the-partner-secret-0123456789';
  const cases: [string, () => Record<string, string>, ErrorCode, RegExp][] = [
    [
      'a wrong partner secret',
      () => ({ ...right(), TACK_PARTNER_SECRET: secret }),
      'TACK_ERR_PARTNER_KEY',
      /tenant A's partner key was refused .*check TACK_PARTNER_CLIENT_ID and TACK_PARTNER_SECRET \(sent in the headers Tenant-Key-1 and Tenant-Key-2/,
    ],
    [
      "a wrong secret of tenant B's key",
      () => ({ ...right(), TACK_OTHER_PARTNER_SECRET: secret }),
      'TACK_ERR_PARTNER_KEY',
      /tenant B's partner key was refused .*check TACK_OTHER_PARTNER_CLIENT_ID and TACK_OTHER_PARTNER_SECRET/,
    ],
    [
      'TACK_IDENTITY_URL without the realm path',
      () => ({ ...right(), TACK_IDENTITY_URL: right().TACK_IDENTITY_URL!.replace('/realms/payroll', '') }),
      'TACK_ERR_IDENTITY',
      /no token endpoint at .*\/protocol\/openid-connect\/token \(404\): TACK_IDENTITY_URL must be the sign-in server with its realm path/,
    ],
    [
      'the token endpoint pasted as TACK_IDENTITY_URL',
      () => ({ ...right(), TACK_IDENTITY_URL: `${right().TACK_IDENTITY_URL}/protocol/openid-connect/token` }),
      'TACK_ERR_CONFIG',
      /TACK_IDENTITY_URL ends with \/protocol\/openid-connect\/token: it is the sign-in server with its realm path/,
    ],
    [
      'a client id the realm does not know',
      () => ({ ...right(), TACK_CLIENT_ID: 'payroll-portl' }),
      'TACK_ERR_IDENTITY',
      /does not accept client id "payroll-portl".*TACK_CLIENT_ID/,
    ],
    ['a wrong TACK_HOOK_TOKEN', () => ({ ...right(), TACK_HOOK_TOKEN: secret }), 'TACK_ERR_HOOK', /refused TACK_HOOK_TOKEN \(401\): check the token/],
    [
      'a token file that is not there',
      () => ({ ...right(), TACK_USER_EMAIL: server.userEmail, TACK_API_TOKEN_FILE: join(dir, 'no-such-token') }),
      'TACK_ERR_TOKEN_FILE',
      /TACK_API_TOKEN_FILE .*no-such-token could not be read \(ENOENT\)/,
    ],
  ];
  it.each(cases)('%s', async (_what, env, code, words) => {
    const out = await run(env());
    expect(out.code, out.message).toBe(code);
    expect(out.exit).toBe(2);
    expect(out.message).toMatch(words);
    if (code !== 'TACK_ERR_CONFIG') expect(out.message).toMatch(/nothing was checked$/i);
    expect(out.message).not.toContain(secret);
    expect(out.ms).toBeLessThan(scaled(15_000));
    expect(writtenError(out.reports)).toMatchObject({ code });
  });

  it('an https:// URL to a port that speaks plain HTTP says to use http://, not TACK_INSECURE_TLS', async () => {
    const plain = createServer((_req, res) => res.end('plain'));
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const port = (plain.address() as AddressInfo).port;
      const out = await run({ ...right(), TACK_BASE_URL: `https://acme.localhost:${port}` });
      expect(out.code).toBe('TACK_ERR_UNREACHABLE');
      expect(out.message).toMatch(
        /TLS failed \(ERR_SSL_WRONG_VERSION_NUMBER\): that port speaks plain HTTP, not TLS: use http:\/\/ instead of https:\/\/ in TACK_BASE_URL/,
      );
      expect(out.message).not.toContain('TACK_INSECURE_TLS');
    } finally {
      plain.close();
    }
  });

  it('the token file is only read: the same token is still in it', async () => {
    const file = join(dir, 'token');
    const token = server.issueApiToken('acme', server.userEmail);
    writeFileSync(file, `${token}\n`, { mode: 0o600 });
    const out = await run({ ...right(), TACK_HOOK_TOKEN: secret, TACK_USER_EMAIL: server.userEmail, TACK_API_TOKEN_FILE: file });
    expect(out.code).toBe('TACK_ERR_HOOK');
    expect(readFileSync(file, 'utf8').trim()).toBe(token);
  });
});
