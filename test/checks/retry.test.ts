import type { ObservedRequest } from '../../src/checks/observed-request.js';
import { repeatedWith } from '../../src/checks/retry.js';
import { table } from './table.js';

const call = (seq: number, target: string, token?: string): ObservedRequest => ({
  seq,
  run: 1,
  role: 'tenant',
  method: 'GET',
  target,
  headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
  body: undefined,
  at: seq,
  response: { status: 200, headers: {}, body: '', at: seq },
});
const refused = call(1, '/api/businesses/search?q=a', 'at-old');
const tokens = new Set(['at-old', 'at-new']);

table('a repeated call (src/checks/retry.ts)', [
  {
    name: 'the same call with the new token',
    found: () => repeatedWith(refused, call(3, '/api/businesses/search?q=a', 'at-new'), 'at-new', 'it', tokens),
    ok: true,
  },
  {
    name: 'the same call with the old token',
    found: () => repeatedWith(refused, call(3, '/api/businesses/search?q=a', 'at-old'), 'at-new', 'the new token', tokens),
    ok: false,
    actual: /^the same call without the new token/,
  },
  { name: 'another call', found: () => repeatedWith(refused, call(3, '/api/other', 'at-new'), 'at-new', 'it', tokens), ok: false, actual: /^another call/ },
  { name: 'no further call', found: () => repeatedWith(refused, undefined, 'at-new', 'it', tokens), ok: false, actual: 'no further API call' },
  {
    name: 'a token in the URL is blanked out before comparing',
    found: () => repeatedWith(call(1, '/api/x?t=at-old', 'at-old'), call(3, '/api/x?t=at-new', 'at-new'), 'at-new', 'it', tokens),
    ok: true,
  },
  {
    name: 'a cache-busting query value is not another call',
    found: () =>
      repeatedWith(
        call(1, '/api/businesses/search?_=1700000000001', 'at-old'),
        call(3, '/api/businesses/search?_=1700000000002', 'at-new'),
        'at-new',
        'it',
        tokens,
      ),
    ok: true,
  },
  {
    name: 'the new token under another scheme (DPoP) is said where it was (how it travels is judged elsewhere)',
    found: () =>
      repeatedWith(refused, { ...call(3, '/api/businesses/search?q=a'), headers: { authorization: 'DPoP at-new' } }, 'at-new', 'the new token', tokens),
    ok: true,
    actual: /^the same call, with the new token in Authorization \(DPoP\)/,
  },
  {
    name: 'the new token in the query string is said where it was (how it travels is judged elsewhere)',
    found: () => repeatedWith(refused, call(3, '/api/businesses/search?q=a&access_token=at-new'), 'at-new', 'the new token', tokens),
    ok: true,
    actual: /^the same call, with the new token in the URL/,
  },
]);
