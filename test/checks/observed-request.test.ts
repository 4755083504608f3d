import {
  accessTokenIssued,
  bearerOf,
  bodyTexts,
  describeRequest,
  formOf,
  inFlightTogether,
  isAdminCall,
  isApiCall,
  isBusinessSearch,
  isInvalidGrant,
  isMint,
  type ObservedRequest,
  originFormOf,
  parameterValues,
  pathOf,
  refreshTokenIssued,
  settledBefore,
} from '../../src/checks/observed-request.js';
import { table } from './table.js';

const request = (parts: Partial<ObservedRequest> = {}, status = 200, body: unknown = undefined): ObservedRequest => ({
  seq: 3,
  run: 1,
  role: 'tenant',
  method: 'GET',
  target: '/api/businesses/search?q=a',
  headers: {},
  body: undefined,
  at: 1,
  response: { status, headers: {}, body: body === undefined ? '' : JSON.stringify(body), at: 2 },
  ...parts,
});
/** Request `seq`, arrived at `at`, answered at `answered`. */
const timed = (seq: number, at: number, answered: number) => request({ seq, at, response: { status: 200, headers: {}, body: '', at: answered } });
const holds = (name: string, ok: boolean) => ({ ok, expected: name, actual: String(ok) });

table('reading a recorded request (src/checks/observed-request.ts)', [
  { name: 'the path without the query', found: () => holds('path', pathOf(request()) === '/api/businesses/search'), ok: true },
  {
    name: 'an absolute-form target (RFC 9112 §3.2.2) has the path after its authority',
    found: () =>
      holds(
        'absolute',
        pathOf(request({ target: 'http://127.0.0.1:4010/api/businesses/search?q=a' })) === '/api/businesses/search' &&
          originFormOf(request({ target: 'HTTP://h.test?q=a' })) === '/?q=a' &&
          isBusinessSearch(request({ target: 'http://h.test:80/api/businesses/search' })),
      ),
    ok: true,
  },
  {
    name: 'a JSON body is searched decoded too: no \\u escape hides a token',
    found: () =>
      holds('json', bodyTexts(request({ body: '{"t":"\\u0061b"}' })).join(' ') === '{"t":"\\u0061b"} {"t":"ab"}' && bodyTexts(request()).length === 0),
    ok: true,
  },
  {
    name: "parameter values: the query, then a JSON body's strings, a multipart form's parts, or the body read as a form",
    found: () => {
      const target = 'http://h.test/x?a=1%2B';
      const json = parameterValues(request({ target, body: '{"t":{"u":["v",2]},"w":"x"}' }));
      const form = parameterValues(request({ target: '/x', body: 't=a%2Fb&u=c' }));
      const headers = { 'content-type': 'multipart/form-data; boundary=B' };
      const multipart = parameterValues(request({ target: '/x', headers, body: '--B\r\nContent-Disposition: form-data; name="t"\r\n\r\nv1\r\n--B--\r\n' }));
      return holds('params', [json, form, multipart].map((v) => v.join(',')).join('|') === '1+,v,x|a/b,c|v1');
    },
    ok: true,
  },
  { name: 'a business search', found: () => holds('search', isBusinessSearch(request()) && isApiCall(request())), ok: true },
  {
    name: 'a web page of the tenant host is no API call: a client reading /account between a 401 and its retry was failed',
    found: () => holds('page', !isApiCall(request({ target: '/account' })) && !isApiCall(request({ target: 'http://acme.localhost:1/account/api-tokens' }))),
    ok: true,
  },
  {
    name: "a request the server answered 404 is no API call: an adversary's /api/health between renewal and retry was taken for the retry",
    found: () =>
      holds(
        '404',
        !isApiCall(request({ target: '/api/health', response: { status: 404, headers: {}, body: '', at: 0 } })) &&
          isApiCall(request({ target: '/api/businesses/search', response: { status: 401, headers: {}, body: '', at: 0 } })),
      ),
    ok: true,
  },
  {
    name: 'a mint is an admin call, not an API call',
    found: () =>
      holds(
        'mint',
        isMint(request({ target: '/api/admin/authentication/token' })) &&
          isAdminCall(request({ target: '/api/admin/authentication/token' })) &&
          !isApiCall(request({ target: '/api/admin/authentication/token' })),
      ),
    ok: true,
  },
  { name: 'Bearer in any letter case', found: () => holds('bearer', bearerOf(request({ headers: { authorization: 'bEaReR at-1' } })) === 'at-1'), ok: true },
  { name: 'no bearer in Basic', found: () => holds('basic', bearerOf(request({ headers: { authorization: 'Basic x' } })) === undefined), ok: true },
  { name: 'a form only with the form media type', found: () => holds('form', formOf(request({ body: 'a=1' })) === undefined), ok: true },
  {
    name: 'tokens of a 2xx answer, either spelling',
    found: () =>
      holds(
        'issued',
        accessTokenIssued(request({}, 200, { accessToken: 'at' })) === 'at' && refreshTokenIssued(request({}, 200, { refresh_token: 'rt' })) === 'rt',
      ),
    ok: true,
  },
  { name: 'no token taken from a refusal', found: () => holds('refused', accessTokenIssued(request({}, 401, { access_token: 'at' })) === undefined), ok: true },
  { name: 'invalid_grant: 400 with it', found: () => holds('invalid_grant', isInvalidGrant(request({}, 400, { error: 'invalid_grant' }))), ok: true },
  { name: 'named without secrets', found: () => holds('describe', describeRequest(request({ target: '/x?token=secret' })) === '#3 GET /x → 200'), ok: true },
  // Time, not arrival order: a parallel client's requests overlap.
  { name: 'answered before the next arrived: settled before', found: () => holds('before', settledBefore(timed(1, 10, 12), timed(2, 13, 15))), ok: true },
  {
    name: 'answered in the millisecond the next arrived: settled before',
    found: () => holds('tie', settledBefore(timed(1, 10, 12), timed(2, 12, 15))),
    ok: true,
  },
  {
    name: 'answered after the next arrived: in flight together',
    found: () => holds('overlap', inFlightTogether(timed(1, 10, 14), timed(2, 12, 15))),
    ok: true,
  },
  { name: 'sequential: not in flight together', found: () => holds('sequential', !inFlightTogether(timed(1, 10, 12), timed(2, 13, 15))), ok: true },
  {
    name: 'never answered: never settled',
    found: () => holds('unanswered', inFlightTogether(request({ seq: 1, response: undefined }), timed(2, 50, 51))),
    ok: true,
  },
]);
