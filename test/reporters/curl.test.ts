/**
 * The reproduction command: built from a redacted exchange, it holds no secret, and bash turns it
 * back into exactly the request that was sent (checked by running it with `curl` as a function
 * that prints its arguments).
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/harness/redactor.js';
import { redactExchange, type Exchange } from '../../src/harness/transcript.js';
import { curlOf, ShellSecrets } from '../../src/reporters/curl.js';
import type { TargetConfig } from '../../src/harness/target-config.js';

const SECRET = `p'a$s"w\`o\\rd-0123456789-Zz`;
const OTHER = 'globex-secret-9876543210';
const HOOK = 'hook-token-abcdefghijklmnop';
const ACCESS = 'eyJhbGciOiJIUzI1NiJ9.payload.signature';
const API = 'api+token/with=odd&chars 1234567890';

const target = {
  partner: { clientId: 'acme-partner', secret: SECRET },
  otherPartner: { clientId: 'globex-partner', secret: OTHER },
  hook: { url: 'http://127.0.0.1:1/__tack', token: HOOK },
} as unknown as TargetConfig;

function setup(): { redactor: Redactor; secrets: ShellSecrets } {
  const redactor = new Redactor();
  redactor.addSecretHeader('Tenant-Key-2');
  redactor.register('partner-secret', SECRET);
  redactor.register('partner-secret', OTHER);
  redactor.register('hook-token', HOOK);
  return { redactor, secrets: new ShellSecrets(target, redactor) };
}

function exchange(headers: Record<string, string>, body?: string, url = 'http://acme.localhost:7070/api/admin/authentication/token'): Exchange {
  return { seq: 1, test: 't', startedAt: '2024-06-01T00:00:00Z', request: { method: 'POST', url, headers, body } };
}

/** Runs the command with `curl` replaced by a function that prints each argument. */
function argsOf(command: string, env: Record<string, string>): string[] {
  const script = `curl() { for a in "$@"; do printf '%s\\0' "$a"; done; }\n${command}\n`;
  const out = execFileSync('bash', ['-c', script], { env: { PATH: process.env.PATH ?? '', ...env } }).toString('utf8');
  return out.split('\0').slice(0, -1);
}

const ENV = { TACK_PARTNER_SECRET: SECRET, TACK_OTHER_PARTNER_SECRET: OTHER, TACK_ACCESS_TOKEN: ACCESS, TACK_API_TOKEN: API, TACK_HOOK_TOKEN: HOOK };

describe('curl reproduction', () => {
  const tampered: [string, string][] = [
    ['the secret itself', SECRET],
    ['cut to 5 characters', SECRET.slice(0, 5)],
    ['with characters appended', `${SECRET}x'y`],
    ['with one character changed', `${SECRET.slice(0, 3)}x${SECRET.slice(4)}`],
    ['in the other letter case', [...SECRET].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('')],
    ["tenant B's secret", OTHER],
  ];

  for (const [what, value] of tampered) {
    it(`sends the partner secret ${what} without writing it down`, () => {
      const { redactor, secrets } = setup();
      if (value !== SECRET && value !== OTHER) redactor.register('partner-secret-variant', value);
      const raw = exchange(
        { 'Tenant-Key-1': 'acme-partner', 'Tenant-Key-2': value, 'content-type': 'application/json' },
        JSON.stringify({ username: 'ana@acme.example' }),
      );
      const { curl, variables } = curlOf(redactExchange(raw, redactor), secrets);
      expect(curl).not.toContain(SECRET);
      expect(curl).not.toContain(OTHER);
      expect(variables.map((v) => v.name)).toEqual([value === OTHER ? 'TACK_OTHER_PARTNER_SECRET' : 'TACK_PARTNER_SECRET']);
      expect(argsOf(curl, ENV)).toEqual([
        '-sS',
        '-i',
        '-X',
        'POST',
        'http://acme.localhost:7070/api/admin/authentication/token',
        '-H',
        'Tenant-Key-1: acme-partner',
        '-H',
        `Tenant-Key-2: ${value}`,
        '-H',
        'content-type: application/json',
        '--data-binary',
        '{"username":"ana@acme.example"}',
      ]);
    });
  }

  it('turns bearer tokens and form fields into variables, encoded by curl', () => {
    const { redactor, secrets } = setup();
    redactor.register('access-token', ACCESS);
    redactor.register('api-token', API);
    const form = new URLSearchParams({ grant_type: 'refresh_token', client_id: 'payroll-portal', refresh_token: API }).toString();
    const raw = exchange(
      { authorization: `Bearer ${ACCESS}`, 'content-type': 'application/x-www-form-urlencoded' },
      form,
      'http://id.localhost:7070/realms/payroll/protocol/openid-connect/token',
    );
    const { curl, variables } = curlOf(redactExchange(raw, redactor), secrets);
    expect(curl).not.toContain(ACCESS);
    expect(curl).not.toContain(API);
    expect(curl).not.toContain(encodeURIComponent(API));
    expect(variables.map((v) => v.name)).toEqual(['TACK_ACCESS_TOKEN', 'TACK_API_TOKEN']);
    expect(argsOf(curl, ENV)).toEqual([
      '-sS',
      '-i',
      '-X',
      'POST',
      'http://id.localhost:7070/realms/payroll/protocol/openid-connect/token',
      '-H',
      `authorization: Bearer ${ACCESS}`,
      '-H',
      'content-type: application/x-www-form-urlencoded',
      '--data-urlencode',
      'grant_type=refresh_token',
      '--data-urlencode',
      'client_id=payroll-portal',
      '--data-urlencode',
      `refresh_token=${API}`,
    ]);
  });

  it('gives two different tokens of one kind two variables', () => {
    const { redactor, secrets } = setup();
    redactor.register('access-token', 'first-access-token-value');
    redactor.register('access-token', 'second-access-token-value');
    const raw = exchange({ authorization: 'Bearer first-access-token-value', 'x-other': 'second-access-token-value' });
    const { variables } = curlOf(redactExchange(raw, redactor), secrets);
    expect(variables.map((v) => v.name)).toEqual(['TACK_ACCESS_TOKEN', 'TACK_ACCESS_TOKEN_2']);
  });
});
