/**
 * Checks on a client's request at their edges (src/checks/request.ts): each case pins down what a
 * weaker check would pass, found by mutation testing (`npm run mutation`).
 */
import { describe, expect, it } from 'vitest';
import type { ObservedRequest } from '../../src/checks/observed-request.js';
import { bearerAmong, formField, formFieldPresent, headerValue, jsonField, noBodyFields, sentTo, withoutPartnerKey } from '../../src/checks/request.js';

const FORM = 'application/x-www-form-urlencoded';
const request = (parts: Partial<ObservedRequest> = {}): ObservedRequest => ({
  seq: 7,
  run: 1,
  role: 'tenant',
  method: 'POST',
  target: '/api/admin/users',
  headers: { 'content-type': FORM },
  body: 'grant_type=refresh_token&refresh_token=',
  at: 1,
  response: { status: 200, headers: {}, body: '', at: 2 },
  ...parts,
});
const json = (body: string) => request({ headers: { 'content-type': 'application/json' }, body });

describe("checks on a client's request at their edges (src/checks/request.ts)", () => {
  it('the right path with another method is not sent to it', () => {
    expect(sentTo(request({ method: 'GET' }), 'POST', '/api/admin/users').ok).toBe(false);
  });

  it('a form field is asked of a form: a JSON body has none, an empty one is not present', () => {
    expect(formFieldPresent(json('{"grant_type":"x"}'), 'grant_type').ok).toBe(false);
    expect(formFieldPresent(request(), 'refresh_token').ok).toBe(false);
    expect(formFieldPresent(request(), 'grant_type').ok).toBe(true);
    expect(formField(json('{"grant_type":"refresh_token"}'), 'grant_type', 'refresh_token').ok).toBe(false);
  });

  it('a body that is JSON null or a JSON array has no fields', () => {
    expect(noBodyFields(json('null'), ['client_secret']).ok).toBe(true);
    expect(noBodyFields(json('["client_secret"]'), ['0']).ok).toBe(true);
    expect(noBodyFields(json('{"scope":"x"}'), ['client_secret', 'scope']).ok).toBe(false);
  });

  it('a JSON member of another value, or a body that is JSON null, is not the expected one', () => {
    expect(jsonField(json('{"username":"b@x"}'), 'username', 'a@x', 'the user').ok).toBe(false);
    expect(jsonField(json('null'), 'username', 'a@x', 'the user').ok).toBe(false);
    expect(jsonField(json('["a@x"]'), '0', 'a@x', 'the user').ok).toBe(false);
  });

  it('what was sent instead is said: another member, no header, another scheme, a token not issued', () => {
    expect(jsonField(json('{"username":"b@x"}'), 'username', 'a@x', 'the user').actual).toMatch(/^another username \(/);
    const bearer = (headers: Record<string, string>) => bearerAmong(request({ headers }), new Set(['at-1']), 'an issued token').actual;
    expect(bearer({})).toMatch(/^no Authorization header \(/);
    expect(bearer({ authorization: 'Basic at-1' })).toMatch(/^an Authorization header that is not Bearer <token> \(/);
    expect(bearer({ authorization: 'Bearer at-2' })).toMatch(/^a Bearer token that is not an issued token \(/);
    expect(bearer({ authorization: 'Bearer at-1' })).toMatch(/^Bearer with an issued token \(/);
  });

  it('a header is looked up by its name in any letter case', () => {
    expect(headerValue(request({ headers: { k1: 'id' } }), 'K1', 'id', 'the client id').ok).toBe(true);
    expect(headerValue(request({ headers: {} }), 'K1', 'id', 'the client id').ok).toBe(false);
  });

  it('Bearer with a token not issued, or no Bearer at all, is not among the issued ones', () => {
    expect(bearerAmong(request({ headers: {} }), new Set(['at-1']), 'an issued token').ok).toBe(false);
    expect(bearerAmong(request({ headers: { authorization: 'Bearer at-2' } }), new Set(['at-1']), 'an issued token').ok).toBe(false);
  });
});

describe('no partner key on a request (src/checks/request.ts withoutPartnerKey)', () => {
  const HEADERS = ['X-Partner-Id', 'X-Partner-Secret'];
  const SECRET = 'partner-secret-000000';
  const found = (headers: Record<string, string>) => withoutPartnerKey(request({ headers }), HEADERS, SECRET);

  it('a request without the key holds', () => {
    expect(found({ authorization: 'Bearer at-1' })).toEqual({ ok: true, expected: expect.any(String), actual: 'none' });
  });

  it('either credential header, under its lower-case name, fails and is named', () => {
    expect(found({ 'x-partner-id': 'acme' }).ok).toBe(false);
    expect(found({ 'x-partner-id': 'acme' }).actual).toMatch(/^X-Partner-Id \(/);
  });

  it('the secret under another header name fails, and that header is named', () => {
    const f = found({ authorization: `Secret ${SECRET}` });
    expect(f.ok).toBe(false);
    expect(f.actual).toMatch(/^the secret in authorization \(/);
  });

  it('a credential header and the secret under another name are both named', () => {
    expect(found({ 'x-partner-id': 'acme', authorization: `Secret ${SECRET}` }).actual).toMatch(/^X-Partner-Id, the secret in authorization \(/);
  });

  it('a named header carrying the secret is reported once, by its name', () => {
    expect(found({ 'x-partner-secret': SECRET }).actual).toMatch(/^X-Partner-Secret \(/);
  });
});
