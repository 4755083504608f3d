import {
  accessTokenIssued,
  bearerTokenType,
  exchanged,
  invalidGrant,
  memberIs,
  nonEmptyString,
  notExchanged,
  noStore,
  rotated,
} from '../../src/checks/oauth.js';
import type { Exchanged } from '../../src/harness/clients/identity.js';
import { answer, table } from './table.js';

const tokens = { access_token: 'at', refresh_token: 'rt' };
const result = (status: number, accessToken?: string, refreshToken?: string): Exchanged => ({
  res: answer(status, { json: status === 200 ? tokens : { error: 'invalid_grant' } }),
  accessToken,
  refreshToken,
  error: status === 200 ? undefined : 'invalid_grant',
});

table('sign-in server answers (src/checks/oauth.ts)', [
  { name: 'invalid_grant: 400 with it', found: () => invalidGrant(answer(400, { json: { error: 'invalid_grant' } })), ok: true },
  { name: 'invalid_grant: 400 invalid_request', found: () => invalidGrant(answer(400, { json: { error: 'invalid_request' } })), ok: false },
  { name: 'invalid_grant: 401 with it', found: () => invalidGrant(answer(401, { json: { error: 'invalid_grant' } })), ok: false },
  { name: 'exchanged: 200 with both tokens', found: () => exchanged(result(200, 'at', 'rt')), ok: true },
  { name: 'exchanged: no refresh token', found: () => exchanged(result(200, 'at')), ok: false },
  { name: 'exchanged: 400', found: () => exchanged(result(400)), ok: false },
  { name: 'access token issued: 200 with one', found: () => accessTokenIssued(result(200, 'at')), ok: true },
  { name: 'access token issued: 200 without', found: () => accessTokenIssued(result(200)), ok: false },
  { name: 'rotated: another refresh token', found: () => rotated('rt-0', result(200, 'at', 'rt-1')), ok: true },
  { name: 'rotated: the same one', found: () => rotated('rt-1', result(200, 'at', 'rt-1')), ok: false, actual: 'the same refresh_token' },
  { name: 'rotated: none', found: () => rotated('rt-1', result(200, 'at')), ok: false, actual: 'no refresh_token' },
  { name: 'not exchanged: 400', found: () => notExchanged(answer(400, { json: { error: 'invalid_grant' } })), ok: true },
  { name: 'not exchanged: 400 with an access token', found: () => notExchanged(answer(400, { json: { access_token: 'at' } })), ok: false },
  { name: 'not exchanged: 500 is no refusal', found: () => notExchanged(answer(500)), ok: false },
  { name: 'no-store: among other directives', found: () => noStore(answer(200, { headers: { 'cache-control': 'private, No-Store' } })), ok: true },
  { name: 'no-store: no-cache only', found: () => noStore(answer(200, { headers: { 'cache-control': 'no-cache' } })), ok: false },
  { name: 'no-store: no header', found: () => noStore(answer(200)), ok: false, actual: 'no Cache-Control header' },
  { name: 'non-empty string: a token', found: () => nonEmptyString({ access_token: 'at' }, 'access_token'), ok: true, actual: 'a non-empty string' },
  { name: 'non-empty string: empty', found: () => nonEmptyString({ access_token: '' }, 'access_token'), ok: false, actual: 'an empty string' },
  { name: 'non-empty string: a number', found: () => nonEmptyString({ access_token: 7 }, 'access_token'), ok: false, actual: 'a number' },
  { name: 'non-empty string: missing', found: () => nonEmptyString({}, 'access_token'), ok: false, actual: 'missing' },
  { name: 'member is 300', found: () => memberIs({ expires_in: 300 }, 'expires_in', 300), ok: true },
  { name: 'member is "300", not 300', found: () => memberIs({ expires_in: '300' }, 'expires_in', 300), ok: false, actual: '"300" (string)' },
  { name: 'token_type bearer, any letter case', found: () => bearerTokenType({ token_type: 'bearer' }), ok: true },
  { name: 'token_type mac', found: () => bearerTokenType({ token_type: 'mac' }), ok: false, actual: '"mac" (string)' },
]);
