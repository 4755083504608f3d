import { emptyBody, jsonMediaType, jsonObjectBody, status, success } from '../../src/checks/response.js';
import { answer, table } from './table.js';

const json = { 'content-type': 'application/json; charset=utf-8' };

table('response checks (src/checks/response.ts)', [
  { name: 'status: the one expected', found: () => status(answer(401), 401), ok: true },
  { name: 'status: another', found: () => status(answer(403), 401), ok: false, actual: '403' },
  { name: 'status: one of several', found: () => status(answer(403), [401, 403]), ok: true },
  {
    name: 'status: describes the OAuth error and media type',
    found: () => status(answer(400, { json: { error: 'x' }, headers: json }), 200),
    ok: false,
    actual: '400 x (application/json)',
  },
  { name: 'success: 204', found: () => success(answer(204)), ok: true },
  { name: 'success: 302 is none', found: () => success(answer(302)), ok: false },
  { name: 'jsonMediaType: application/json with a charset', found: () => jsonMediaType(answer(200, { headers: json })), ok: true },
  { name: 'jsonMediaType: a +json type', found: () => jsonMediaType(answer(400, { headers: { 'content-type': 'application/problem+json' } })), ok: true },
  { name: 'jsonMediaType: text/html', found: () => jsonMediaType(answer(200, { headers: { 'content-type': 'text/html' } })), ok: false, actual: 'text/html' },
  { name: 'jsonMediaType: none', found: () => jsonMediaType(answer(200)), ok: false, actual: '(none)' },
  { name: 'jsonObjectBody: an object', found: () => jsonObjectBody(answer(200, { json: { a: 1 } })), ok: true },
  { name: 'jsonObjectBody: an array', found: () => jsonObjectBody(answer(200, { json: [1] })), ok: false, actual: /not a JSON object/ },
  { name: 'jsonObjectBody: empty', found: () => jsonObjectBody(answer(200)), ok: false, actual: 'an empty body' },
  { name: 'emptyBody: white space only', found: () => emptyBody(answer(200, { text: ' \n' })), ok: true },
  { name: 'emptyBody: {}', found: () => emptyBody(answer(200, { json: {} })), ok: false, actual: /a body of 2 characters/ },
]);
