import { findSecret, type KnownSecret, noSecretIn } from '../../src/checks/leaks.js';
import { table } from './table.js';

const SECRET: KnownSecret = { value: 'tpat_a+b/c=d"e', kind: 'the API token' };

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
]);
