import type { ObservedRequest } from '../../src/checks/observed-request.js';
import {
  atRole,
  bearerAmong,
  formField,
  formFieldPresent,
  headerValue,
  jsonField,
  mediaType,
  noBodyFields,
  noHeader,
  sentTo,
  withoutPartnerKey,
} from '../../src/checks/request.js';
import { table } from './table.js';

const FORM = 'application/x-www-form-urlencoded';
const KEY_HEADERS = ['K-Id', 'K-Secret'];
const PARTNER_SECRET = 'ps_0123456789abcdefXYZ';
/** A secret whose form-encoded form differs from it: inside Basic credentials, only decoding finds it. */
const ODD_SECRET = 'ps+/0123=456789ab?cd';
const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;
const request = (parts: Partial<ObservedRequest> = {}): ObservedRequest => ({
  seq: 7,
  run: 1,
  role: 'identity',
  method: 'POST',
  target: '/realms/payroll/protocol/openid-connect/token',
  headers: { 'content-type': FORM },
  body: 'grant_type=refresh_token&client_id=payroll-portal&refresh_token=tpat_x',
  at: 1,
  response: { status: 200, headers: {}, body: '', at: 2 },
  ...parts,
});
const json = (body: unknown) => request({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

table("checks on a client's request (src/checks/request.ts)", [
  { name: 'sent to the endpoint', found: () => sentTo(request(), 'POST', '/realms/payroll/protocol/openid-connect/token'), ok: true },
  { name: 'a query does not change the path', found: () => sentTo(request({ target: '/x?a=1' }), 'POST', '/x'), ok: true },
  { name: 'sent to another path', found: () => sentTo(request(), 'POST', '/token'), ok: false, actual: /^#7 POST \/realms/ },
  { name: 'media type: form', found: () => mediaType(request(), FORM), ok: true },
  { name: 'media type: none', found: () => mediaType(request({ headers: {} }), FORM), ok: false, actual: /^no Content-Type/ },
  { name: 'form field with its value', found: () => formField(request(), 'client_id', 'payroll-portal'), ok: true },
  { name: 'form field with another value', found: () => formField(request(), 'client_id', 'other'), ok: false, actual: /^another client_id/ },
  { name: 'form field in a JSON body is none', found: () => formField(json({ client_id: 'payroll-portal' }), 'client_id', 'payroll-portal'), ok: false },
  { name: 'form field present', found: () => formFieldPresent(request(), 'refresh_token'), ok: true },
  { name: 'form field missing', found: () => formFieldPresent(request(), 'scope'), ok: false, actual: /^no scope field/ },
  { name: 'no client_secret field', found: () => noBodyFields(request(), ['client_secret']), ok: true },
  { name: 'a client_secret in the form', found: () => noBodyFields(request({ body: 'client_secret=s' }), ['client_secret']), ok: false },
  { name: 'a client_secret in JSON', found: () => noBodyFields(json({ client_secret: 's' }), ['client_secret']), ok: false },
  { name: 'JSON member with its value', found: () => jsonField(json({ username: 'a@x' }), 'username', 'a@x', 'the user'), ok: true },
  { name: 'JSON member missing', found: () => jsonField(json({}), 'username', 'a@x', 'the user'), ok: false, actual: /^no username member/ },
  { name: 'not a JSON object', found: () => jsonField(request(), 'username', 'a@x', 'the user'), ok: false, actual: /^a body that is not a JSON object/ },
  { name: 'at the sign-in server', found: () => atRole(request(), 'identity', 'the sign-in server'), ok: true },
  {
    name: 'at the tenant host instead',
    found: () => atRole(request({ role: 'tenant' }), 'identity', 'the sign-in server'),
    ok: false,
    actual: /^the tenant host/,
  },
  { name: 'no Authorization header', found: () => noHeader(request(), 'Authorization'), ok: true },
  { name: 'an Authorization header', found: () => noHeader(request({ headers: { authorization: 'x' } }), 'Authorization'), ok: false },
  { name: 'header with its value', found: () => headerValue(request({ headers: { k1: 'id' } }), 'K1', 'id', 'the client id'), ok: true },
  { name: 'header with another value', found: () => headerValue(request({ headers: { k1: 'x' } }), 'K1', 'id', 'the client id'), ok: false },
  {
    name: 'Bearer with an issued token',
    found: () => bearerAmong(request({ headers: { authorization: 'bearer at-1' } }), new Set(['at-1']), 'an issued token'),
    ok: true,
  },
  {
    name: 'Bearer with a token never issued',
    found: () => bearerAmong(request({ headers: { authorization: 'Bearer at-9' } }), new Set(['at-1']), 'an issued token'),
    ok: false,
    actual: /^a Bearer token that is not an issued token/,
  },
  { name: 'Basic instead', found: () => bearerAmong(request({ headers: { authorization: 'Basic x' } }), new Set(['x']), 'a token'), ok: false },
  // withoutPartnerKey: the two headers by name, the secret under any name and in any form (Basic credentials once passed).
  { name: 'no partner key on a call', found: () => withoutPartnerKey(request(), KEY_HEADERS, PARTNER_SECRET), ok: true, actual: 'none' },
  {
    name: 'a partner key header by its name',
    found: () => withoutPartnerKey(request({ headers: { 'k-secret': 'x' } }), KEY_HEADERS, PARTNER_SECRET),
    ok: false,
    actual: /^K-Secret \(#7/,
  },
  {
    name: 'the secret in another header',
    found: () => withoutPartnerKey(request({ headers: { 'x-api-key': PARTNER_SECRET } }), KEY_HEADERS, PARTNER_SECRET),
    ok: false,
    actual: /^the secret in x-api-key/,
  },
  {
    name: 'the secret as Basic credentials (base64 of id:secret)',
    found: () => withoutPartnerKey(request({ headers: { authorization: basic(`acme-partner:${PARTNER_SECRET}`) } }), KEY_HEADERS, PARTNER_SECRET),
    ok: false,
    actual: /^the secret in authorization/,
  },
  {
    name: 'the secret form-encoded, then as Basic credentials (RFC 6749 §2.3.1)',
    found: () => withoutPartnerKey(request({ headers: { authorization: basic(`acme%2Bpartner:${encodeURIComponent(ODD_SECRET)}`) } }), KEY_HEADERS, ODD_SECRET),
    ok: false,
    actual: /^the secret in authorization/,
  },
  {
    name: 'Basic credentials of something else',
    found: () => withoutPartnerKey(request({ headers: { authorization: basic('someone:else-entirely') } }), KEY_HEADERS, PARTNER_SECRET),
    ok: true,
  },
  // The secret in a body sent to the sign-in server once passed.
  {
    name: 'the secret as client_secret in a form body to the sign-in server',
    found: () =>
      withoutPartnerKey(
        request({ body: `grant_type=client_credentials&client_id=acme&client_secret=${encodeURIComponent(ODD_SECRET)}` }),
        KEY_HEADERS,
        ODD_SECRET,
      ),
    ok: false,
    actual: /^the secret in the body/,
  },
  {
    name: 'the secret in a JSON body to the sign-in server',
    found: () =>
      withoutPartnerKey(
        request({ headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientSecret: ODD_SECRET }) }),
        KEY_HEADERS,
        ODD_SECRET,
      ),
    ok: false,
    actual: /^the secret in the body/,
  },
  {
    name: 'the secret in the query',
    found: () =>
      withoutPartnerKey(request({ target: `/realms/payroll/protocol/openid-connect/token?client_secret=${PARTNER_SECRET}` }), KEY_HEADERS, PARTNER_SECRET),
    ok: false,
    actual: /^the secret in the URL/,
  },
]);
