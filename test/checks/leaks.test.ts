import { findSecret, type KnownSecret, noSecretIn, secretValuesIn } from '../../src/checks/leaks.js';
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
  // Issue 27: `xxd -u`, `%X`, `.hex().upper()` passed as no secret.
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
]);

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
