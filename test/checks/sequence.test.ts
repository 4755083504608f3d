import type { ObservedRequest } from '../../src/checks/observed-request.js';
import { atMost, exactly, sameValue } from '../../src/checks/sequence.js';
import { table } from './table.js';

const request = (seq: number): ObservedRequest => ({
  seq,
  run: 1,
  role: 'identity',
  method: 'POST',
  target: '/realms/payroll/protocol/openid-connect/token',
  headers: {},
  body: undefined,
  at: seq,
  response: { status: 200, headers: {}, body: '', at: seq },
});
const two = [request(1), request(2)];

table('counted requests (src/checks/sequence.ts)', [
  { name: 'at most 1 of 1', found: () => atMost([request(1)], 1, 'exchange'), ok: true },
  { name: 'at most 1 of 2', found: () => atMost(two, 1, 'exchange'), ok: false, actual: /^2 exchanges: #1 POST .* → 200, #2/ },
  { name: 'at most 0 of 0', found: () => atMost([], 0, 'exchange'), ok: true, actual: 'no exchange' },
  { name: 'exactly 2', found: () => exactly(two, 2, 'exchange'), ok: true },
  { name: 'exactly 1 of 2', found: () => exactly(two, 1, 'exchange'), ok: false },
  { name: 'the same value', found: () => sameValue('rt-2', 'rt-2', 'the newest API token', 'an older one'), ok: true, actual: 'the newest API token' },
  { name: 'another value', found: () => sameValue('rt-1', 'rt-2', 'the newest API token', 'an older one'), ok: false, actual: 'an older one' },
  { name: 'nothing', found: () => sameValue(undefined, 'rt-2', 'the newest API token', 'an older one'), ok: false, actual: 'nothing' },
]);
