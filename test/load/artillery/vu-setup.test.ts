/**
 * The Artillery processor reads the TACK_* variables as tack does (config/schema.ts through
 * src/harness/config.ts), not with a looser parser of its own: a misspelt name, a URL that does not
 * mean what it says or a tolerance out of range stops the set-up with tack's message, and it loads
 * only loopback targets unless TACK_ALLOW_REMOTE=1.
 */
import { describe, expect, it } from 'vitest';
import { checkTargets, readSettings } from '../../../src/load/artillery/vu-setup.js';

const TARGET = {
  TACK_BASE_URL: 'http://acme.localhost:8080/',
  TACK_IDENTITY_URL: 'http://id.localhost:8080/realms/payroll',
  TACK_HOOK_URL: 'http://127.0.0.1:8080/__tack',
  TACK_HOOK_TOKEN: 'hook-token',
  TACK_PARTNER_CLIENT_ID: 'partner',
  TACK_PARTNER_SECRET: 'secret',
};

describe('the processor reads the TACK_* variables with tack’s schema', () => {
  it('resolves the target as tack does, with its defaults, and ignores every other variable', () => {
    const { target, allowRemote } = readSettings({ ...TARGET, PATH: '/usr/bin', HOME: '/root' });
    expect(target).toMatchObject({
      baseUrl: 'http://acme.localhost:8080',
      tenant: 'acme',
      clientId: 'payroll-portal',
      partnerHeaders: ['Tenant-Key-1', 'Tenant-Key-2'],
      partner: { clientId: 'partner', secret: 'secret' },
      hook: { url: 'http://127.0.0.1:8080/__tack', token: 'hook-token' },
      accessToleranceS: 5,
      insecureTls: false,
      requestTimeoutMs: 10_000,
    });
    expect(allowRemote).toBe(false);
  });

  it.each([
    ['a misspelt name', { TACK_HOOK_TOKN: 'x' }, /TACK_HOOK_TOKN is not a tack variable; did you mean TACK_HOOK_TOKEN\?/],
    ['a URL that does not mean what it says', { TACK_BASE_URL: 'http:8080//acme.localhost:8080' }, /TACK_BASE_URL must be written scheme:\/\/host/],
    ['a tolerance beyond 5 % of the lifetime', { TACK_ACCESS_TOLERANCE_S: '16' }, /TACK_ACCESS_TOLERANCE_S must be at most 15/],
    ['a hook URL without its token', { TACK_HOOK_TOKEN: undefined }, /TACK_HOOK_TOKEN is missing: it goes with TACK_HOOK_URL/],
    ['one partner header name', { TACK_PARTNER_HEADERS: 'Tenant-Key' }, /TACK_PARTNER_HEADERS must be two different HTTP header names/],
    ['TACK_ALLOW_REMOTE other than 1 or 0', { TACK_ALLOW_REMOTE: 'yes' }, /TACK_ALLOW_REMOTE must be 1/],
  ])('refuses %s with tack’s configuration error', (_what, change, message) => {
    expect(() => readSettings({ ...TARGET, ...change })).toThrow(expect.objectContaining({ code: 'TACK_ERR_CONFIG', message: expect.stringMatching(message) }));
  });

  it('says the target comes from the environment when TACK_BASE_URL is not set', () => {
    expect(() => readSettings({})).toThrow(/TACK_BASE_URL is not set: the tack Artillery processor reads the target from the environment/);
  });
});

describe('the loopback guard', () => {
  const remote = { ...TARGET, TACK_BASE_URL: 'http://192.0.2.10' };

  it('refuses a target off this machine', async () => {
    await expect(checkTargets(readSettings(remote))).rejects.toThrow(/http:\/\/192\.0\.2\.10 is not on this machine/);
  });

  it('loads it with TACK_ALLOW_REMOTE=1, and loopback targets always', async () => {
    await expect(checkTargets(readSettings({ ...remote, TACK_ALLOW_REMOTE: '1' }))).resolves.toBeUndefined();
    await expect(checkTargets(readSettings(TARGET))).resolves.toBeUndefined();
  });
});
