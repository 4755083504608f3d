import { createHash } from 'node:crypto';
import { inspect } from 'node:util';
import { findSecret, isSecretValue, type KnownSecret, noSecretIn, secretValuesIn } from '../../src/checks/leaks.js';
import { table } from './table.js';

const SECRET: KnownSecret = { value: 'tpat_a+b/c=d"e', kind: 'the API token' };
const PLAIN: KnownSecret = { value: 'eyJhbGciOiJSUzI1NiJ9.at-7f3a9c', kind: 'an access token' };
/** `printf %s eyJhbGciOiJSUzI1NiJ9.at-7f3a9c | base32` (GNU coreutils). */
const BASE32_OF_PLAIN = 'MV4UU2DCI5RWST3JJJJVK6SJGFHGSSRZFZQXILJXMYZWCOLD';

table('no secret in a text (src/checks/leaks.ts)', [
  { name: 'none in it', found: () => noSecretIn('GET /api/businesses/search', [SECRET], 'the URL'), ok: true, actual: 'none' },
  { name: 'as it is', found: () => noSecretIn(`token=${SECRET.value}`, [SECRET], 'the output'), ok: false, actual: 'the API token in the output' },
  { name: 'URL-encoded', found: () => noSecretIn(`?t=${encodeURIComponent(SECRET.value)}`, [SECRET], 'the URL'), ok: false },
  { name: 'form-encoded', found: () => noSecretIn(new URLSearchParams({ t: SECRET.value }).toString(), [SECRET], 'the body'), ok: false },
  { name: 'JSON-escaped', found: () => noSecretIn(JSON.stringify({ t: SECRET.value }), [SECRET], 'the log'), ok: false },
  {
    name: 'the first secret found is named',
    found: () => {
      const found = findSecret('partner-secret-0000', [SECRET, { value: 'partner-secret-0000', kind: 'the partner secret' }]);
      return { ok: found?.kind === 'the partner secret', expected: 'the partner secret', actual: found?.kind ?? 'none' };
    },
    ok: true,
  },
  { name: 'base64', found: () => noSecretIn(`t=${Buffer.from(SECRET.value).toString('base64')}`, [SECRET], 'the output'), ok: false },
  { name: 'base64url', found: () => noSecretIn(Buffer.from(SECRET.value).toString('base64url'), [SECRET], 'the output'), ok: false },
  {
    name: 'base64 inside a longer encoded text (an encoded JSON object)',
    found: () => noSecretIn(Buffer.from(JSON.stringify({ token: PLAIN.value })).toString('base64'), [PLAIN], 'the output'),
    ok: false,
  },
  { name: 'hex', found: () => noSecretIn(Buffer.from(SECRET.value).toString('hex'), [SECRET], 'the output'), ok: false },
  // `xxd -u`, `%X`, `.hex().upper()` once passed as no secret.
  { name: 'upper-case hex', found: () => noSecretIn(Buffer.from(SECRET.value).toString('hex').toUpperCase(), [SECRET], 'the output'), ok: false },
  {
    name: 'upper-case hex in a URL query',
    found: () => noSecretIn(`/api/businesses/search?t=${Buffer.from(PLAIN.value).toString('hex').toUpperCase()}`, [PLAIN], 'the URL'),
    ok: false,
  },
  {
    name: 'URL-encoded with lower-case escapes',
    found: () => noSecretIn(`?t=${encodeURIComponent(SECRET.value).toLowerCase()}`, [SECRET], 'the URL'),
    ok: false,
  },
  { name: 'base32 (RFC 4648)', found: () => noSecretIn(BASE32_OF_PLAIN, [PLAIN], 'the output'), ok: false },
  {
    name: 'cut across two lines',
    found: () => noSecretIn(`token: ${SECRET.value.slice(0, 6)}\n  ${SECRET.value.slice(6)}`, [SECRET], 'the output'),
    ok: false,
  },
  { name: 'only its first characters', found: () => noSecretIn(`token ${SECRET.value.slice(0, 6)}…`, [SECRET], 'the output'), ok: true },
  // Once passed as no secret: hex as real tools print it, every byte %-escaped, ANSI colours, lower-case base32.
  { name: 'an xxd dump (offsets, 2-byte groups, ASCII column)', found: () => noSecretIn(xxd(PLAIN.value), [PLAIN], 'the output'), ok: false },
  { name: 'a hexdump -C dump', found: () => noSecretIn(hexdumpC(PLAIN.value), [PLAIN], 'the output'), ok: false },
  { name: "Node's <Buffer 61 62 …>", found: () => noSecretIn(`got ${inspect(Buffer.from(PLAIN.value))}`, [PLAIN], 'the output'), ok: false },
  { name: "space-separated hex (Python bytes.hex(' '))", found: () => noSecretIn(spaced(PLAIN.value, ' '), [PLAIN], 'the output'), ok: false },
  { name: 'colon-separated hex, upper case', found: () => noSecretIn(spaced(PLAIN.value, ':').toUpperCase(), [PLAIN], 'the output'), ok: false },
  { name: 'every byte %-escaped, upper case', found: () => noSecretIn(`/search?t=${escapeAll(PLAIN.value)}`, [PLAIN], 'the URL'), ok: false },
  { name: 'every byte %-escaped, lower case', found: () => noSecretIn(`/search?t=${escapeAll(PLAIN.value).toLowerCase()}`, [PLAIN], 'the URL'), ok: false },
  {
    name: 'ANSI colour codes inside it',
    found: () => noSecretIn(`\x1b[1m${PLAIN.value.slice(0, 10)}\x1b[0;33m${PLAIN.value.slice(10)}\x1b[0m`, [PLAIN], 'the output'),
    ok: false,
  },
  { name: 'lower-case base32', found: () => noSecretIn(BASE32_OF_PLAIN.toLowerCase(), [PLAIN], 'the output'), ok: false },
  {
    name: 'a 6-character fingerprint of it is no secret',
    found: () => noSecretIn(`fp ${spaced(PLAIN.value.slice(0, 3), ' ')}`, [PLAIN], 'the output'),
    ok: true,
  },
  {
    name: 'a sha256 of it is no secret',
    found: () => noSecretIn(spaced(createHash('sha256').update(PLAIN.value).digest(), ':'), [PLAIN], 'the output'),
    ok: true,
  },
]);

/** `xxd` output: offset, 2-byte groups, the ASCII column. */
function xxd(value: string): string {
  const bytes = Buffer.from(value);
  const lines: string[] = [];
  for (let at = 0; at < bytes.length; at += 16) {
    const row = bytes.subarray(at, at + 16);
    const groups = (row.toString('hex').match(/.{1,4}/g) ?? []).join(' ');
    lines.push(`${at.toString(16).padStart(8, '0')}: ${groups.padEnd(39)}  ${row.toString('latin1')}`);
  }
  return `${lines.join('\n')}\n`;
}

/** `hexdump -C` output. */
function hexdumpC(value: string): string {
  const bytes = Buffer.from(value);
  const lines: string[] = [];
  for (let at = 0; at < bytes.length; at += 16) {
    const row = [...bytes.subarray(at, at + 16)].map((b) => b.toString(16).padStart(2, '0'));
    lines.push(
      `${at.toString(16).padStart(8, '0')}  ${row.slice(0, 8).join(' ')}  ${row.slice(8).join(' ')}  |${bytes.subarray(at, at + 16).toString('latin1')}|`,
    );
  }
  return lines.join('\n');
}

function spaced(value: string | Buffer, separator: string): string {
  return [...Buffer.from(value)].map((b) => b.toString(16).padStart(2, '0')).join(separator);
}

function escapeAll(value: string): string {
  return [...Buffer.from(value)].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join('');
}

table('secret values of an answer (src/checks/leaks.ts)', [
  {
    name: 'a discovery document holds none: token_endpoint is a URL',
    found: () => {
      const values = secretValuesIn({
        issuer: 'http://127.0.0.1:1/realms/payroll',
        token_endpoint: 'http://127.0.0.1:1/realms/payroll/protocol/openid-connect/token',
      });
      return { ok: values.length === 0, expected: 'none', actual: values.length === 0 ? 'none' : 'some' };
    },
    ok: true,
  },
  {
    name: 'a token answer holds its tokens',
    found: () => {
      const values = secretValuesIn({ access_token: 'at_1234567890', refresh_token: 'tpat_1234567890', token_type: 'Bearer', expires_in: 300 });
      return {
        ok: values.join(',') === 'at_1234567890,tpat_1234567890',
        expected: 'both tokens',
        actual: values.length === 2 ? 'both tokens' : `${values.length}`,
      };
    },
    ok: true,
  },
]);

const isValue = (name: string, value: string, ok: boolean, secret = PLAIN.value) => ({
  name,
  found: () => ({ ok: isSecretValue(value, secret), expected: 'the secret', actual: isSecretValue(value, secret) ? 'the secret' : 'another value' }),
  ok,
});

table('a whole value is the secret (src/checks/leaks.ts)', [
  isValue('as it is', PLAIN.value, true),
  isValue('a longer value that merely holds it is not: no false red on `<token>.old`', `${PLAIN.value}.old`, false),
  isValue('every byte %-escaped', escapeAll(PLAIN.value), true),
  isValue('URL-encoded', encodeURIComponent(SECRET.value), true, SECRET.value),
  isValue('base64, padded', Buffer.from(SECRET.value).toString('base64'), true, SECRET.value),
  isValue('base64url', Buffer.from(SECRET.value).toString('base64url'), true, SECRET.value),
  isValue('hex', Buffer.from(PLAIN.value).toString('hex'), true),
  isValue('base32 (GNU coreutils)', BASE32_OF_PLAIN, true),
  isValue('base32 in lower case', BASE32_OF_PLAIN.toLowerCase(), true),
  isValue('base64 of a longer value is not', Buffer.from(`${PLAIN.value}.old`).toString('base64'), false),
]);
