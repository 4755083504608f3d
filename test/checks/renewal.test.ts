import type { ObservedRequest } from '../../src/checks/observed-request.js';
import { stillAlive } from '../../src/checks/renewal.js';
import { table } from './table.js';

const exchange = (status: number, answer: unknown): ObservedRequest => ({
  seq: 3,
  run: 2,
  role: 'identity',
  method: 'POST',
  target: '/realms/payroll/protocol/openid-connect/token',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: 'grant_type=refresh_token&client_id=payroll-portal&refresh_token=tpat_kept',
  at: 1,
  response: { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(answer), at: 2 },
});

table('a renewal with a kept token (src/checks/renewal.ts)', [
  {
    name: 'answered with an access token',
    found: () => stillAlive(exchange(200, { access_token: 'at_1', refresh_token: 'tpat_2', token_type: 'Bearer' }), 'the API token it kept'),
    ok: true,
    actual: /^a new access token \(#3 POST/,
  },
  {
    name: 'invalid_grant',
    found: () => stillAlive(exchange(400, { error: 'invalid_grant' }), 'the API token it kept'),
    ok: false,
    actual: /^invalid_grant: the API token it kept was dead/,
  },
  { name: 'another refusal', found: () => stillAlive(exchange(503, {}), 'the API token it kept'), ok: false, actual: /^no access token/ },
]);
