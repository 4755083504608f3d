import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectEnv, resolveTarget, validateEnv } from '../../src/harness/config.js';
import { isTackError } from '../../src/harness/errors.js';

const remote = { TACK_BASE_URL: 'https://acme.uat.example.com/', TACK_IDENTITY_URL: 'https://id.uat.example.com/realms/payroll' };

function messageOf(env: Record<string, string>): string {
  try {
    validateEnv(env);
  } catch (error) {
    expect(isTackError(error, 'TACK_ERR_CONFIG')).toBe(true);
    return (error as Error).message;
  }
  throw new Error('expected a configuration error');
}

describe('configuration', () => {
  it('applies the contract defaults', () => {
    const target = resolveTarget(validateEnv(remote), false);
    expect(target.baseUrl).toBe('https://acme.uat.example.com');
    expect(target.tenant).toBe('acme');
    expect(target.partnerHeaders).toEqual(['Tenant-Key-1', 'Tenant-Key-2']);
    expect(target.clientId).toBe('payroll-portal');
    expect(target.toleranceS).toBe(5);
    expect(target.accessToleranceS).toBe(5);
    expect(target.paging).toEqual({ pageIndexParam: 'pageIndex', pageSizeParam: 'pageSize' });
  });

  it('allows TACK_USER_EMAIL without a token file (partner-key runs: a user whose minted tokens can prove they work)', () => {
    const target = resolveTarget(validateEnv({ ...remote, TACK_USER_EMAIL: 'alice@acme.example' }), false);
    expect(target.userEmail).toBe('alice@acme.example');
    expect(target.hookless).toBeUndefined();
  });

  it.each([
    [{ ...remote, TACK_BASE_URL: 'acme.example.com' }, 'TACK_BASE_URL must be written scheme://host[:port][/path]'],
    // URL parsing would make host 0.0.150.139 of this, and send the requests there.
    [{ ...remote, TACK_BASE_URL: 'http:38539//acme.localhost:38539' }, 'TACK_BASE_URL must be written scheme://host[:port][/path]'],
    [{ ...remote, TACK_BASE_URL: 'http://0x7f.1:8080' }, 'TACK_BASE_URL does not mean what it says: "http://0x7f.1:8080" parses to host 127.0.0.1'],
    [{ ...remote, TACK_BASE_URL: 'https://acme.example.com?x=1' }, 'no query, no fragment'],
    [{ ...remote, TACK_BASE_URL: 'https://user:pw@acme.example.com' }, 'TACK_BASE_URL must not carry a user name or password'],
    [{ ...remote, TACK_CLOCK_TOLERANCE_S: '86400' }, 'TACK_CLOCK_TOLERANCE_S must be at most 21600'],
    [{ ...remote, TACK_ACCESS_TOLERANCE_S: '180' }, 'TACK_ACCESS_TOLERANCE_S must be at most 15'],
    [{ ...remote, TACK_BASE_URLL: 'https://acme.uat.example.com' }, 'TACK_BASE_URLL is not a tack variable; did you mean TACK_BASE_URL?'],
    [{ ...remote, TACK_CLOCK_TOLERANCE: '180' }, 'TACK_CLOCK_TOLERANCE is not a tack variable; did you mean TACK_CLOCK_TOLERANCE_S?'],
    [{ ...remote, TACK_WHATEVER: '1' }, 'TACK_WHATEVER is not a tack variable (tack reads only'],
    // A misspelt TACK_BASE_URL must not turn into a run against the built-in server.
    [
      { TACK_BASE_UR: 'https://acme.uat.example.com', TACK_PARTNER_CLIENT_ID: 'id', TACK_PARTNER_SECRET: 's' },
      'TACK_BASE_URL is missing but TACK_PARTNER_CLIENT_ID, TACK_PARTNER_SECRET are set',
    ],
    [{ TACK_USER_EMAIL: 'alice@acme.example' }, 'TACK_BASE_URL is missing but TACK_USER_EMAIL is set'],
    [{ TACK_BASE_URL: remote.TACK_BASE_URL }, 'TACK_IDENTITY_URL is missing'],
    [{ ...remote, TACK_PARTNER_CLIENT_ID: 'id' }, 'TACK_PARTNER_SECRET is missing'],
    // The token endpoint pasted as the sign-in server.
    [
      { ...remote, TACK_IDENTITY_URL: 'https://id.uat.example.com/realms/payroll/protocol/openid-connect/token' },
      'TACK_IDENTITY_URL ends with /protocol/openid-connect/token: it is the sign-in server with its realm path, ' +
        'the part before /protocol/openid-connect, e.g. https://id.uat.example.com/realms/payroll',
    ],
    [{ ...remote, TACK_HOOK_TOKEN: 't' }, 'TACK_HOOK_URL is missing'],
    [{ ...remote, TACK_PARTNER_HEADERS: 'Only-One' }, 'TACK_PARTNER_HEADERS must be two different HTTP header names'],
    [{ ...remote, TACK_API_TOKEN_FILE: '/tmp/t' }, 'TACK_USER_EMAIL is missing'],
    [{ ...remote, TACK_CLOCK_TOLERANCE_S: 'soon' }, 'TACK_CLOCK_TOLERANCE_S must be a number'],
    [{ ...remote, TACK_ACCESS_TOLERANCE_S: '16' }, 'TACK_ACCESS_TOLERANCE_S must be at most 15'],
    [{ ...remote, TACK_ACCESS_TOLERANCE_S: '2.5' }, 'TACK_ACCESS_TOLERANCE_S must be a whole number of seconds'],
    [{ TACK_HOOK_URL: 'http://127.0.0.1:1/__tack', TACK_HOOK_TOKEN: 'x' }, 'TACK_BASE_URL is missing but TACK_HOOK_URL, TACK_HOOK_TOKEN are set'],
  ])('names the variable and the fix: %j', (env, expected) => {
    expect(messageOf(env as Record<string, string>)).toContain(expected);
  });

  it('never shows the query of a rejected URL: a key may sit there (Azure Functions: ?code=...)', () => {
    const message = messageOf({ ...remote, TACK_HOOK_URL: 'https://fn.azurewebsites.net/api/tack?code=s3cr3t-function-key' });
    expect(message).toContain('TACK_HOOK_URL must be written scheme://host[:port][/path]');
    expect(message).toContain('"https://fn.azurewebsites.net/api/tack?…"');
    expect(message).not.toContain('s3cr3t');
  });

  it('accepts the tuning variables without a target (they shape the built-in server or the run)', () => {
    expect(() =>
      validateEnv({ TACK_PARTNER_HEADERS: 'X-A,X-B', TACK_CLIENT_ID: 'desk', TACK_CLOCK_TOLERANCE_S: '180', TACK_ACCESS_TOLERANCE_S: '10' }),
    ).not.toThrow();
  });

  it('accepts URLs written as they mean: IPv6, ports, paths, a trailing slash', () => {
    for (const url of ['http://[::1]:7070/__tack', 'https://id.uat.example.com/realms/payroll', 'http://acme.localhost:7070/', 'http://127.0.0.1:80']) {
      expect(() => validateEnv({ ...remote, TACK_HOOK_URL: url, TACK_HOOK_TOKEN: 't' }), url).not.toThrow();
    }
  });

  it('reads the env file first and lets the process environment win', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tack-config-'));
    const file = join(dir, 'target.env');
    writeFileSync(file, 'TACK_BASE_URL=https://file.example.com\nTACK_CLIENT_ID=from-file\nOTHER=ignored\n');
    const env = collectEnv({ envFile: file, env: { TACK_BASE_URL: 'https://process.example.com', PATH: '/bin' } });
    expect(env).toEqual({ TACK_BASE_URL: 'https://process.example.com', TACK_CLIENT_ID: 'from-file' });
  });

  it('names a missing env file', () => {
    expect(() => collectEnv({ envFile: '/nonexistent/tack.env', env: {} })).toThrow(/--env-file \/nonexistent\/tack.env could not be read/);
  });
});

describe('docs/configuration.md', () => {
  it('lists every variable, as generated from config/schema.ts (npm run docs)', async () => {
    const { readFileSync } = await import('node:fs');
    const { withVariablesTable } = await import('../../src/cli/variables-doc.js');
    const doc = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
    expect(doc, 'the variables table is out of date: run npm run docs').toBe(withVariablesTable(doc));
  });
});
