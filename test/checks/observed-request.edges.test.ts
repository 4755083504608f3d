/**
 * Reading a recorded request at its edges (src/checks/observed-request.ts): each case pins down what
 * a weaker reading would get wrong, found by mutation testing (`npm run mutation`).
 */
import { describe, expect, it } from 'vitest';
import {
  accessTokenIssued,
  answered2xx,
  bearerOf,
  describeRequest,
  formOf,
  isBusinessSearch,
  isInvalidGrant,
  isMint,
  isPartnerRefresh,
  jsonOf,
  mediaTypeOf,
  member,
  type ObservedRequest,
  pathOf,
  refreshTokenIssued,
  statusOf,
} from '../../src/checks/observed-request.js';

const request = (parts: Partial<ObservedRequest> = {}, status: number | null = 200, body = ''): ObservedRequest => ({
  seq: 3,
  run: 1,
  role: 'tenant',
  method: 'GET',
  target: '/api/businesses/search?q=a',
  headers: {},
  body: undefined,
  at: 1,
  response: status === null ? undefined : { status, headers: {}, body, at: 2 },
  ...parts,
});
const bearer = (authorization: string) => bearerOf(request({ headers: { authorization } }));

describe('reading a recorded request at its edges (src/checks/observed-request.ts)', () => {
  it('a target that is only a query has an empty path', () => {
    expect(pathOf({ target: '?a=1' })).toBe('');
  });

  it('a mint or a partner refresh under a base path is still one; the path must end with it', () => {
    expect(isMint(request({ target: '/tenant-7/api/admin/authentication/token' }))).toBe(true);
    expect(isPartnerRefresh(request({ target: '/tenant-7/api/admin/authentication/refresh?x=1' }))).toBe(true);
    expect(isPartnerRefresh(request({ target: '/api/admin/authentication/refresh/extra' }))).toBe(false);
    expect(isPartnerRefresh(request({ target: '/api/admin/authentication/token' }))).toBe(false);
  });

  it('a business search is a GET of the search path at the tenant host, nothing else', () => {
    expect(isBusinessSearch(request())).toBe(true);
    expect(isBusinessSearch(request({ role: 'identity' }))).toBe(false);
    expect(isBusinessSearch(request({ method: 'POST' }))).toBe(false);
    expect(isBusinessSearch(request({ target: '/api/businesses/searches' }))).toBe(false);
  });

  it('2xx means 200 to 299; no answer is none', () => {
    expect([199, 200, 299, 300].map((s) => answered2xx(request({}, s)))).toEqual([false, true, true, false]);
    expect(answered2xx(request({}, null))).toBe(false);
    expect(statusOf(request({}, null))).toBeUndefined();
  });

  it('a media type spaced before its parameters is read without the space', () => {
    expect(mediaTypeOf(request({ headers: { 'content-type': 'Application/JSON ; charset=utf-8' } }))).toBe('application/json');
  });

  it('a form content type without a body has no form', () => {
    expect(formOf(request({ headers: { 'content-type': 'application/x-www-form-urlencoded' } }))).toBeUndefined();
  });

  it('no body, a blank body and one that is not JSON read as no JSON', () => {
    expect(jsonOf(undefined)).toBeUndefined();
    expect(jsonOf('  ')).toBeUndefined();
    expect(jsonOf('{')).toBeUndefined();
    expect(jsonOf('{"a":1}')).toEqual({ a: 1 });
  });

  it('Bearer: the scheme at the start, one or more spaces, one token, trailing spaces allowed', () => {
    expect(bearer('Bearer  t1')).toBe('t1');
    expect(bearer('Bearer t1 ')).toBe('t1');
    expect(bearer('xBearer t1')).toBeUndefined();
    expect(bearer('Bearer t1 t2')).toBeUndefined();
  });

  it('a member is a non-empty string of an object: null, an empty member and an array give none', () => {
    expect(member(null, ['a'])).toBeUndefined();
    expect(member(['x'], ['0'])).toBeUndefined();
    expect(member({ a: '', b: 'x' }, ['a', 'b'])).toBe('x');
    expect(member({ a: 1 }, ['a'])).toBeUndefined();
  });

  it('tokens are read from a 2xx answer only', () => {
    const body = JSON.stringify({ access_token: 'at', refresh_token: 'rt' });
    expect(accessTokenIssued(request({}, 200, body))).toBe('at');
    expect(refreshTokenIssued(request({}, 200, body))).toBe('rt');
    expect(accessTokenIssued(request({}, 400, body))).toBeUndefined();
    expect(refreshTokenIssued(request({}, null))).toBeUndefined();
  });

  it('invalid_grant is a 400 with that error, nothing else', () => {
    const grant = JSON.stringify({ error: 'invalid_grant' });
    expect(isInvalidGrant(request({}, 400, grant))).toBe(true);
    expect(isInvalidGrant(request({}, 401, grant))).toBe(false);
    expect(isInvalidGrant(request({}, 400, JSON.stringify({ error: 'invalid_request' })))).toBe(false);
    expect(isInvalidGrant(request({}, null))).toBe(false);
  });

  it('a request not answered is described without a status', () => {
    expect(describeRequest(request({}, null))).toBe('#3 GET /api/businesses/search');
    expect(describeRequest(request({}, 404))).toBe('#3 GET /api/businesses/search → 404');
  });
});
