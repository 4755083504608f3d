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
  });

  it.each([
    [{ ...remote, TACK_BASE_URL: 'acme.example.com' }, 'TACK_BASE_URL must be written scheme://host[:port][/path]'],
    [{ TACK_BASE_URL: remote.TACK_BASE_URL }, 'TACK_IDENTITY_URL is missing'],
    [{ ...remote, TACK_PARTNER_CLIENT_ID: 'id' }, 'TACK_PARTNER_SECRET is missing'],
    [{ ...remote, TACK_HOOK_TOKEN: 't' }, 'TACK_HOOK_URL is missing'],
    [{ ...remote, TACK_PARTNER_HEADERS: 'Only-One' }, 'TACK_PARTNER_HEADERS must be two different HTTP header names'],
    [{ ...remote, TACK_API_TOKEN_FILE: '/tmp/t' }, 'TACK_USER_EMAIL is missing'],
    [{ ...remote, TACK_CLOCK_TOLERANCE_S: 'soon' }, 'TACK_CLOCK_TOLERANCE_S must be a number'],
    [{ TACK_HOOK_URL: 'http://127.0.0.1:1/__tack', TACK_HOOK_TOKEN: 'x' }, 'TACK_BASE_URL is missing but TACK_HOOK_URL, TACK_HOOK_TOKEN are set'],
  ])('names the variable and the fix: %j', (env, expected) => {
    expect(messageOf(env as Record<string, string>)).toContain(expected);
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
