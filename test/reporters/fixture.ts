/**
 * A fixed results document and transcript for the renderers' unit tests: one rule of each status,
 * a failed property with its replay, a warning, an error, a skip, and text that must be escaped.
 */
import type { Exchange } from '../../src/harness/transcript.js';
import type { ReportRule, ResultsDocument } from '../../src/reporters/results-schema.js';

export const NASTY = `<script>alert("x")</script> & 'quotes' | pipes`;

const base = { observations: [] as string[], unverified: [] as string[], durationMs: 12 };

export const RULES: ReportRule[] = [
  {
    ...base,
    id: 'PARTNER-SECRET-EXACT',
    level: 'MUST',
    area: 'partner-key',
    section: '§5',
    text: 'The secret is compared whole.',
    status: 'failed',
    reason: `a tampered secret is refused with 401 (property): expected 401, got 200; counterexample {"value":"<partner-secret-variant#1>"}`,
    checks: [
      {
        rule: 'PARTNER-SECRET-EXACT',
        test: 'partner-key/tampered-credentials',
        title: 'a tampered secret is refused with 401 (property)',
        ok: false,
        expected: '401',
        actual: '200 (secret cut to its first 5 characters)',
        exchanges: [2, 3],
        replay: { seed: 42, path: '3:1', counterexample: '{"value":"<partner-secret-variant#1>"}' },
      },
    ],
    tests: ['partner-key/tampered-credentials'],
    exchanges: [2, 3],
    reproduce: {
      exchange: 3,
      curl:
        `curl -sS -i -X POST 'http://acme.localhost:7070/api/admin/authentication/token' \\\n` +
        `  -H 'Tenant-Key-1: acme-partner' \\\n` +
        `  -H 'Tenant-Key-2: '"\${TACK_PARTNER_SECRET:0:5}"`,
      variables: [{ name: 'TACK_PARTNER_SECRET', meaning: "tenant A's partner secret" }],
    },
    replay: 'tack run --seed 42 --path 3:1 --only PARTNER-SECRET-EXACT',
  },
  {
    ...base,
    id: 'PARTNER-HEADERS-REQUIRED',
    level: 'MUST',
    area: 'partner-key',
    section: '§5, §7',
    text: 'Both headers are required.',
    status: 'passed',
    reason: '12 checks passed',
    checks: [
      { rule: 'PARTNER-HEADERS-REQUIRED', test: 'partner-key/headers-required', title: 'no header', ok: true, expected: '401', actual: '401', exchanges: [1] },
    ],
    tests: ['partner-key/headers-required'],
    exchanges: [1],
    observations: ['the problem body has a title member'],
    unverified: [],
  },
  {
    ...base,
    id: 'PARTNER-TIMEZONE',
    level: 'SHOULD',
    area: 'partner-key',
    section: '§2',
    text: 'A bad timeZone is refused.',
    status: 'warning',
    reason: `timeZone ${NASTY}: expected 400, got 201`,
    checks: [
      { rule: 'PARTNER-TIMEZONE', test: 'partner-key/create-user', title: `timeZone ${NASTY}`, ok: false, expected: '400', actual: '201', exchanges: [4] },
    ],
    tests: ['partner-key/create-user'],
    exchanges: [4],
  },
  {
    ...base,
    id: 'SIGNIN-EXCHANGE',
    level: 'MUST',
    area: 'sign-in',
    section: '§2, §4.2, §5',
    text: 'Exchange works.',
    status: 'error',
    reason: 'sign-in/exchange: TACK_ERR_TIMEOUT: identity server http://id.localhost:7070 did not answer within 10 s',
    checks: [],
    tests: ['sign-in/exchange'],
    exchanges: [5],
  },
  {
    ...base,
    id: 'SEARCH-SHAPE',
    level: 'MUST',
    area: 'api',
    section: '§2, §4.3',
    text: 'Search answers the documented shape.',
    status: 'skipped',
    reason: 'needs a personal API token: the test hook with the users and api-tokens capabilities',
    checks: [],
    tests: [],
    exchanges: [],
  },
];

export const EXCHANGES: Exchange[] = [
  exchange(
    1,
    'partner-key/headers-required',
    'POST',
    'http://acme.localhost:7070/api/admin/users',
    { 'content-type': 'application/json' },
    '{"email":"a@b.example"}',
    401,
    '{"status":401,"title":"Unauthorized"}',
  ),
  exchange(
    2,
    'partner-key/tampered-credentials',
    'POST',
    'http://acme.localhost:7070/api/admin/authentication/token',
    { 'Tenant-Key-1': 'acme-partner', 'Tenant-Key-2': '<partner-secret#1>' },
    '{"username":"x@y.example"}',
    200,
    '{"accessToken":"<access-token#1>","refreshToken":"<refresh-token#1>"}',
  ),
  exchange(
    3,
    'partner-key/tampered-credentials',
    'POST',
    'http://acme.localhost:7070/api/admin/authentication/token',
    { 'Tenant-Key-1': 'acme-partner', 'Tenant-Key-2': '<partner-secret-variant#1>' },
    '{"username":"x@y.example"}',
    200,
    '{"accessToken":"<access-token#2>"}',
  ),
  exchange(
    4,
    'partner-key/create-user',
    'POST',
    'http://acme.localhost:7070/api/admin/users',
    { 'content-type': 'application/json' },
    JSON.stringify({ timeZone: NASTY }),
    201,
    '',
  ),
  {
    seq: 5,
    test: 'sign-in/exchange',
    startedAt: '2024-06-01T10:00:05.000Z',
    request: { method: 'POST', url: 'http://id.localhost:7070/realms/payroll/protocol/openid-connect/token', headers: {}, body: 'grant_type=refresh_token' },
    error: { code: 'TACK_ERR_TIMEOUT', message: 'no answer' },
    durationMs: 10000,
  },
];

export const DOC: ResultsDocument = {
  schema: 'tack-results/1',
  tack: { version: '0.1.0', catalog: '1.0.0' },
  run: {
    id: '20240601T100000Z-abcd',
    startedAt: '2024-06-01T10:00:00.000Z',
    finishedAt: '2024-06-01T10:00:10.000Z',
    seed: 42,
    numRuns: 12,
    strict: false,
    requireAll: false,
    uncheckedMust: 1,
    deadline: undefined,
    only: [],
    faults: ['partner-secret-prefix-match'],
    exitCode: 1,
  },
  target: {
    baseUrl: 'http://acme.localhost:7070',
    otherBaseUrl: 'http://globex.localhost:7070',
    identityUrl: 'http://id.localhost:7070/realms/payroll',
    partnerHeaders: ['Tenant-Key-1', 'Tenant-Key-2'],
    clientId: 'payroll-portal',
    builtIn: true,
    mode: 'hook',
    hook: { url: 'http://127.0.0.1:7070/__tack', contract: 'tack-hook/1', capabilities: ['clock', 'users'], problem: undefined },
    toleranceS: 5,
    accessToleranceS: 5,
    fieldsUsed: { 'partner access token': 'accessToken' },
  },
  baseline: undefined,
  rules: RULES,
  tests: [],
};

function exchange(
  seq: number,
  test: string,
  method: string,
  url: string,
  headers: Record<string, string>,
  body: string,
  status: number,
  resBody: string,
): Exchange {
  return {
    seq,
    test,
    startedAt: `2024-06-01T10:00:0${seq}.000Z`,
    request: { method, url, headers, body },
    response: { status, headers: { 'content-type': resBody.startsWith('{') ? 'application/json' : 'text/plain' }, body: resBody },
    durationMs: 2.5,
  };
}
