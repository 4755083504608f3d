/**
 * Fuzzing the reference server: it is every user's first target, so odd input must never make it
 * answer 5xx, crash, hang or grow without bound.
 *
 * Requests are written byte by byte on raw sockets, so nothing a client library would refuse to
 * send is out of reach: random methods, paths (known routes with tampered segments, malformed
 * percent-encoding, invalid UTF-8), every host (tenants, unknown tenants, the sign-in server, the
 * hook with and without its token, no Host at all), random headers, cookies and content types, JSON,
 * form and binary bodies, bodies over the 64 KiB limit, bodies cut short, and HTTP that is not HTTP.
 * The web pages are in it too: the sign-in pages (authorization requests with random parameters,
 * sign-in forms around a real signed request), the account and token pages and the callback, with
 * real and tampered session cookies, and the authorization_code grant.
 */
import fc from 'fast-check';
import { connect } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceServer, startReferenceServer } from '../../src/reference/index.js';
import { Browser, field, generateUrl, pkce, signedIn, urls } from '../reference/web-helpers.js';
import { scaled } from '../helpers/time-limits.js';

let server: ReferenceServer;
let port: number;
let hookToken: string;
let partner: { id: string; secret: string };
/** A live signed sign-in request, and real session cookies of both hosts. */
let sealedRequest = '';
let cookies: { tenant: string; signIn: string; login: string } = { tenant: '', signIn: '', login: '' };
const unexpected: string[] = [];
const originalWrite = process.stderr.write.bind(process.stderr);

beforeAll(async () => {
  server = await startReferenceServer();
  port = server.port;
  hookToken = server.env.TACK_HOOK_TOKEN!;
  partner = { id: server.env.TACK_PARTNER_CLIENT_ID!, secret: server.env.TACK_PARTNER_SECRET! };
  const browser = await signedIn(server);
  sealedRequest = field((await browser.open(generateUrl(server, 'fuzz', pkce().challenge))).text, 'request');
  const pending = new Browser(server);
  await pending.open(urls(server).account);
  cookies = {
    tenant: `tack_session=${browser.cookies('acme.localhost').get('tack_session') ?? ''}`,
    signIn: `tack_signin=${browser.cookies('id.localhost').get('tack_signin') ?? ''}`,
    login: `tack_login=${pending.cookies('acme.localhost').get('tack_login') ?? ''}`,
  };
  // The server logs each unexpected error (a 500) to stderr: collect them.
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (text.includes('tack reference server')) unexpected.push(text.trim());
    return (originalWrite as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
});

afterAll(async () => {
  process.stderr.write = originalWrite;
  await server.close();
});

interface RawReply {
  /** Status of the first response, undefined when the server answered nothing. */
  readonly status: number | undefined;
  readonly head: string;
  /** True when the server neither answered nor closed within the wait. */
  readonly hung: boolean;
}

/** Writes `bytes` on a fresh connection and reads the first response (or the close). */
function raw(bytes: Buffer, options: { endAfterWrite?: boolean; waitMs?: number } = {}): Promise<RawReply> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (hung: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      resolve({ status: m ? Number(m[1]) : undefined, head: text.slice(0, 300), hung });
    };
    const timer = setTimeout(() => finish(true), options.waitMs ?? 3_000);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const text = Buffer.concat(chunks).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end));
      const bodyBytes = Buffer.concat(chunks).length - Buffer.byteLength(text.slice(0, end + 4), 'latin1');
      if (/^HTTP\/1\.[01] (204|304)/.test(text) || text.startsWith('HEAD') || (length && bodyBytes >= Number(length[1]))) finish(false);
    });
    socket.on('close', () => finish(false));
    socket.on('error', () => finish(false));
    socket.write(bytes, () => {
      if (options.endAfterWrite) socket.end();
    });
  });
}

// ── Arbitraries ───────────────────────────────────────────────────────────────────────────────

const emailish = fc.oneof(
  fc.emailAddress(),
  fc.constantFrom('alice@acme.example', 'casey@both.example', 'dana@acme.example', 'nobody@nowhere.example'),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

/** A path segment: encoded properly, or malformed on purpose. */
const segment = fc.oneof(
  emailish.map((s) => encodeURIComponent(s)),
  emailish,
  fc.constantFrom('%', '%zz', '%E0%A4', '%C0%AF', '%FF%FE', '%00', '%2F..%2F', '..', '.', '', '%25', '%F0%9F%98', '%ED%A0%80', 'a%20b', '%u0041'),
  fc.string({ unit: 'grapheme', maxLength: 20 }).map((s) => encodeURIComponent(s)),
);

const tenantPath = fc.oneof(
  fc.constantFrom('/api/admin/authentication/token', '/api/admin/authentication/refresh', '/api/admin/users', '/api/businesses/search'),
  fc.constantFrom('/account', '/account/api-tokens', '/account/callback', '/account/', '/account/reset-password'),
  segment.map((e) => `/api/admin/users/${e}/reset-password`),
);
const identityPath = fc.constantFrom(
  '/realms/payroll/protocol/openid-connect/token',
  '/realms/payroll/protocol/openid-connect/revoke',
  '/realms/payroll/protocol/openid-connect/auth',
  '/realms/payroll/.well-known/openid-configuration',
  '/realms/payroll/login-actions/authenticate',
  '/realms/payroll',
  '/realms/other/protocol/openid-connect/token',
);
const hookPath = fc.oneof(
  fc.constantFrom('/__tack', '/__tack/', '/__tack/clock'),
  fc.tuple(fc.constantFrom('acme', 'globex', 'nope', '%zz'), segment).map(([t, e]) => `/__tack/tenants/${t}/users/${e}/api-tokens`),
  fc.constantFrom('acme', 'globex', 'nope', '%E0%A4').map((t) => `/__tack/tenants/${t}/users`),
  segment.map((e) => `/__tack/users/${e}/disable`),
  fc.tuple(fc.constantFrom('acme', 'nope'), segment, segment).map(([t, id, e]) => `/__tack/tenants/${t}/businesses/${id}/access/${e}`),
  fc.constantFrom('acme', 'globex', 'nope').map((t) => `/__tack/tenants/${t}/features`),
  fc.constantFrom('acme', 'nope').map((t) => `/__tack/tenants/${t}/businesses`),
);
const anyPath = fc.oneof(
  tenantPath,
  identityPath,
  hookPath,
  fc.constantFrom('/', '*', '//api//admin/users', '/api/admin/users/', '/api/../__tack/clock'),
  fc.array(segment, { maxLength: 6 }).map((parts) => `/${parts.join('/')}`),
);

const query = fc.oneof(
  { weight: 3, arbitrary: fc.constant('') },
  {
    weight: 1,
    arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 12 }), { maxKeys: 4 }).map((q) => `?${new URLSearchParams(q).toString()}`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '?pageIndex=-1&pageSize=1e9',
      '?pageSize=0',
      '?pageIndex=%zz',
      '?a=%',
      '?&&&',
      '?pageSize=99999999999999999999',
      '?q=%00',
      '?pageIndex=1&pageIndex=2',
    ),
  },
);

/** Bytes safe inside a request target (no space, CR, LF): anything else is Node's 400 anyway. */
const safeTarget = (p: string, q: string) => (p + q).replace(/[\s\x00-\x1f\x7f]/g, (c) => encodeURIComponent(c));

const method = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('POST', 'GET', 'PUT') },
  { weight: 2, arbitrary: fc.constantFrom('PATCH', 'DELETE', 'HEAD', 'OPTIONS') },
  { weight: 1, arbitrary: fc.constantFrom('PROPFIND', 'FOO', 'TRACE', 'M-SEARCH', 'CONNECT') },
);

type HostOf = (p: number) => string | undefined;
const tenantHost = fc.constantFrom<HostOf>(
  (p) => `acme.localhost:${p}`,
  (p) => `globex.localhost:${p}`,
  (p) => `ACME.LOCALHOST.:${p}`,
  (p) => `nope.localhost:${p}`,
  () => 'acme.localhost',
);
const identityHost = fc.constantFrom<HostOf>(
  (p) => `id.localhost:${p}`,
  (p) => `ID.localhost:${p}`,
);
const hookHost = fc.constantFrom<HostOf>(
  (p) => `127.0.0.1:${p}`,
  (p) => `hook.localhost:${p}`,
  (p) => `localhost:${p}`,
);
const oddHost = fc.constantFrom<HostOf>(
  () => 'evil.example',
  () => '[::1',
  () => '[::1]',
  () => '',
  () => undefined,
  () => 'a..localhost',
  () => '-x.localhost',
);

/** Host and path: mostly a host with its own paths (so handlers run), sometimes anything with anything. */
const hostAndPath = fc
  .oneof(
    { weight: 4, arbitrary: fc.tuple(tenantHost, tenantPath, query) },
    { weight: 3, arbitrary: fc.tuple(identityHost, identityPath, query) },
    { weight: 3, arbitrary: fc.tuple(hookHost, hookPath, query) },
    { weight: 2, arbitrary: fc.tuple(fc.oneof(tenantHost, identityHost, hookHost, oddHost), anyPath, query) },
  )
  .map(([h, p, q]) => ({ host: h, path: safeTarget(p, q) }));

const contentType = fc.option(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/json; charset=utf-16',
    'application/problem+json',
    'application/x-www-form-urlencoded',
    'text/plain',
    'multipart/form-data; boundary=xyz',
    'application/octet-stream',
    ';;;',
    'application/',
    'application/json;',
  ),
  { nil: undefined },
);

/** Header values must be bytes Node accepts on the wire (no CR/LF); anything else is a 400 from the parser. */
const headerValue = fc.string({ unit: 'grapheme-ascii', maxLength: 60 });

const extraHeaders = fc.record(
  {
    auth: fc.option(
      fc.oneof(
        fc.constant(() => `Bearer ${hookToken}`),
        fc.constant(() => `Bearer ${hookToken}`),
        fc.constant(() => `bearer ${hookToken}`),
        fc.constant(() => 'Bearer '),
        fc.constant(() => 'Basic YWxhZGRpbjpvcGVuc2VzYW1l'),
        headerValue.map((v) => () => `Bearer ${v}`),
      ),
      { nil: undefined },
    ),
    partnerHeaders: fc.option(
      fc.oneof(
        fc.constant(() => ({ 'Tenant-Key-1': partner.id, 'Tenant-Key-2': partner.secret })),
        fc.constant(() => ({ 'tenant-key-1': partner.id, 'TENANT-KEY-2': partner.secret })),
        fc.tuple(headerValue, headerValue).map(([a, b]) => () => ({ 'Tenant-Key-1': a, 'Tenant-Key-2': b })),
        fc.constant(() => ({ 'Tenant-Key-1': partner.id })),
      ),
      { nil: undefined },
    ),
    origin: fc.option(fc.constantFrom('https://evil.example', 'null', 'http://acme.localhost'), { nil: undefined }),
    cookie: fc.option(
      fc.oneof(
        fc.constant(() => cookies.tenant),
        fc.constant(() => `${cookies.signIn}; ${cookies.login}`),
        fc.constant(() => `${cookies.tenant.slice(0, -3)}xyz`),
        fc.constantFrom('tack_session=', 'tack_session="', 'tack_signin=idsess.e30.x', '=;;=', 'tack_login=weblogin.%%%.a').map((c) => () => c),
        headerValue.map((v) => () => v),
      ),
      { nil: undefined },
    ),
    random: fc.dictionary(fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,15}$/), headerValue, { maxKeys: 3 }),
  },
  { requiredKeys: ['random'] },
);

/** A body, as bytes. */
const body = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v) ?? 'null')),
  fc.record({ username: emailish }).map((v) => Buffer.from(JSON.stringify(v))),
  fc.record({ refreshToken: fc.string() }).map((v) => Buffer.from(JSON.stringify(v))),
  fc
    .record(
      {
        email: emailish,
        firstName: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
        lastName: fc.string(),
        timeZone: fc.oneof(fc.constantFrom('Europe/Paris', 'Mars/Olympus', '', '../../etc'), fc.string()),
        signIn: fc.constantFrom('direct', 'embedded', 'x'),
      },
      { requiredKeys: [] },
    )
    .map((v) => Buffer.from(JSON.stringify(v))),
  fc
    .record({ advanceSeconds: fc.oneof(fc.integer({ min: -10, max: 1000 }), fc.constantFrom(1e300, -1, 0.5, Number.MAX_SAFE_INTEGER, 8.64e15)) })
    .map((v) => Buffer.from(JSON.stringify(v))),
  fc
    .record(
      { apiTokens: fc.oneof(fc.boolean(), fc.string()), access: fc.constantFrom('read', 'none', 'write'), name: fc.string(), registrationNumber: fc.string() },
      { requiredKeys: [] },
    )
    .map((v) => Buffer.from(JSON.stringify(v))),
  fc
    .dictionary(fc.constantFrom('grant_type', 'client_id', 'refresh_token', 'token', 'token_type_hint', 'client_secret', 'x'), fc.string(), { maxKeys: 5 })
    .map((d) => Buffer.from(new URLSearchParams(d).toString())),
  fc
    .constantFrom(
      'grant_type=refresh_token&client_id=payroll-portal&refresh_token=%',
      'grant_type=refresh_token&grant_type=password',
      '%%%',
      'a=1&a=2&a=3',
      '{"username":',
      '{"__proto__":{"x":1}}',
      '{"constructor":{"prototype":{"polluted":true}}}',
      '[]',
      'null',
      '"str"',
      '1e999',
    )
    .map((s) => Buffer.from(s)),
  fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)),
  fc.constantFrom(
    Buffer.from([0xff, 0xfe, 0xfd]),
    Buffer.from([0xc0, 0xaf]),
    Buffer.from('{"username":"\ud800"}'),
    Buffer.from([0x7b, 0x22, 0x75, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
  ),
);

interface FuzzRequest {
  readonly method: string;
  readonly path: string;
  readonly host: string | undefined;
  readonly contentType: string | undefined;
  readonly headers: Record<string, string>;
  readonly body: Buffer | undefined;
  /** How the body is framed on the wire. */
  readonly framing: 'length' | 'chunked' | 'lying-length';
}

const randomRequest: fc.Arbitrary<FuzzRequest> = fc
  .record({
    method,
    target: hostAndPath,
    contentType,
    extra: extraHeaders,
    body,
    framing: fc.constantFrom('length', 'length', 'length', 'chunked', 'lying-length'),
  })
  .map(({ method: m, target: { host: h, path: p }, contentType: ct, extra, body: b, framing }) => {
    const headers: Record<string, string> = { ...extra.random };
    if (extra.auth) headers.Authorization = extra.auth();
    if (extra.partnerHeaders) Object.assign(headers, extra.partnerHeaders());
    if (extra.origin) headers.Origin = extra.origin;
    if (extra.cookie) headers.Cookie = extra.cookie();
    return { method: m, path: p, host: h?.(port), contentType: ct, headers, body: b, framing: framing as FuzzRequest['framing'] };
  });

/**
 * Requests that pass routing, authentication and the content-type check, so the handlers' own
 * parsing and state changes run on random field values (including a real, live API token).
 */
const json = (v: unknown) => Buffer.from(JSON.stringify(v));
const anyValue = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 2 }),
  fc.object({ maxDepth: 1 }),
);
const tenantLabel = fc.constantFrom('acme', 'globex', 'nope');
const wellFormed: fc.Arbitrary<FuzzRequest> = fc.oneof(
  // Partner-key endpoints with the right key.
  fc
    .tuple(tenantLabel, fc.oneof(fc.record({ username: emailish }), fc.record({ username: anyValue }), fc.object({ maxDepth: 2 })))
    .map(([t, b]) => partnerCall(t, '/api/admin/authentication/token', json(b))),
  fc
    .tuple(tenantLabel, fc.oneof(fc.record({ refreshToken: fc.string() }), fc.record({ refreshToken: anyValue })))
    .map(([t, b]) => partnerCall(t, '/api/admin/authentication/refresh', json(b))),
  fc
    .tuple(
      tenantLabel,
      fc.record(
        {
          email: fc.oneof(emailish, anyValue),
          firstName: fc.oneof(fc.string(), anyValue),
          lastName: fc.oneof(fc.string(), anyValue),
          displayName: anyValue,
          phoneNumber: anyValue,
          timeZone: fc.oneof(fc.constantFrom('Europe/Paris', 'UTC', 'Mars/Olympus', '', 'Etc/GMT+99', '../../etc/passwd'), anyValue),
        },
        { requiredKeys: [] },
      ),
    )
    .map(([t, b]) => partnerCall(t, '/api/admin/users', json(b))),
  fc
    .tuple(
      tenantLabel,
      fc.record(
        {
          email: fc.oneof(fc.emailAddress(), fc.constantFrom('alice@acme.example', 'casey@both.example')),
          firstName: fc.string({ minLength: 1 }),
          lastName: fc.string({ minLength: 1 }),
          timeZone: fc.constantFrom('Europe/Paris', 'America/Argentina/Buenos_Aires', 'UTC', 'Etc/GMT-14', 'Mars/Olympus'),
        },
        { requiredKeys: ['email', 'firstName', 'lastName'] },
      ),
    )
    .map(([t, b]) => partnerCall(t, '/api/admin/users', json(b))),
  fc.tuple(tenantLabel, segment).map(([t, e]) => partnerCall(t, `/api/admin/users/${e}/reset-password`, undefined)),
  // Search with a token that is garbage, empty, or of the wrong kind.
  fc.tuple(tenantLabel, fc.oneof(fc.string({ unit: 'grapheme-ascii', maxLength: 80 }), fc.constant('')), query).map(([t, tok, q]) => ({
    method: 'GET',
    path: safeTarget('/api/businesses/search', q),
    host: `${t}.localhost:${port}`,
    contentType: undefined,
    headers: { Authorization: `Bearer ${tok}` },
    body: undefined,
    framing: 'length' as const,
  })),
  // Sign-in server: exchange and revoke with random forms, sometimes around a live token.
  fc
    .tuple(
      fc.constantFrom('token', 'revoke'),
      fc.dictionary(
        fc.constantFrom('grant_type', 'client_id', 'refresh_token', 'token', 'token_type_hint', 'client_secret', 'scope'),
        fc.oneof(fc.string(), fc.constantFrom('refresh_token', 'payroll-portal', 'password')),
        { maxKeys: 5 },
      ),
      fc.boolean(),
    )
    .map(([endpoint, form, live]) => {
      const fields = { grant_type: 'refresh_token', client_id: 'payroll-portal', ...form };
      if (live) (fields as Record<string, string>)[endpoint === 'token' ? 'refresh_token' : 'token'] = liveToken();
      return {
        method: 'POST',
        path: `/realms/payroll/protocol/openid-connect/${endpoint}`,
        host: `id.localhost:${port}`,
        contentType: 'application/x-www-form-urlencoded',
        headers: {},
        body: Buffer.from(new URLSearchParams(fields).toString()),
        framing: 'length' as const,
      };
    }),
  // The sign-in pages: authorization requests with random parameters, signed-in or not.
  fc
    .tuple(
      fc.dictionary(
        fc.constantFrom(
          'client_id',
          'redirect_uri',
          'response_type',
          'scope',
          'state',
          'code_challenge',
          'code_challenge_method',
          'prompt',
          'login_hint',
          'nonce',
        ),
        fc.oneof(
          fc.string({ maxLength: 60 }),
          fc.constantFrom('payroll-portal', 'code', 'openid', 'S256', 'login', 'none', 'plain', 'x'.repeat(43)),
          fc.constant('http://acme.localhost:PORT/account/api-tokens'),
        ),
        { maxKeys: 10 },
      ),
      fc.boolean(),
    )
    .map(([params, signedInAlready]) => {
      const fields = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, v.replace('PORT', String(port))]));
      const path = safeTarget('/realms/payroll/protocol/openid-connect/auth', `?${new URLSearchParams(fields).toString()}`);
      return webCall('GET', `id.localhost:${port}`, path, signedInAlready ? cookies.signIn : undefined, undefined);
    }),
  // Sign-in forms: around a real signed request or a broken one.
  fc
    .record(
      {
        request: fc.oneof(fc.constant('LIVE'), fc.string({ maxLength: 80 })),
        username: fc.oneof(emailish, fc.string()),
        password: fc.string({ maxLength: 40 }),
        action: fc.constantFrom('sign-in', 'cancel', '', 'x'),
      },
      { requiredKeys: [] },
    )
    .map((form) => {
      const fields: Record<string, string> = { ...form } as Record<string, string>;
      if (fields['request'] === 'LIVE') fields['request'] = sealedRequest;
      const body = Buffer.from(new URLSearchParams(fields).toString());
      return webCall('POST', `id.localhost:${port}`, '/realms/payroll/login-actions/authenticate', undefined, body);
    }),
  // The tenant host's pages and callback, with real, missing or broken cookies and random queries.
  fc
    .tuple(
      fc.constantFrom('/account', '/account/api-tokens', '/account/callback'),
      fc.dictionary(fc.constantFrom('code', 'state', 'error', 'iss', 'x'), fc.string({ maxLength: 40 }), { maxKeys: 4 }),
      fc.constantFrom('tenant', 'login', 'none', 'broken'),
    )
    .map(([path, params, jar]) => {
      const broken = 'tack_session=websess.AAAA.BBBB; tack_login=weblogin..';
      const cookie = jar === 'tenant' ? cookies.tenant : jar === 'login' ? cookies.login : jar === 'broken' ? broken : undefined;
      return webCall('GET', `acme.localhost:${port}`, safeTarget(path, `?${new URLSearchParams(params).toString()}`), cookie, undefined);
    }),
  // The authorization_code grant with random codes, verifiers and redirect URIs.
  fc
    .dictionary(
      fc.constantFrom('code', 'redirect_uri', 'code_verifier', 'client_id'),
      fc.oneof(fc.string({ maxLength: 130 }), fc.constantFrom('payroll-portal', 'ac1.x', 'a'.repeat(43))),
      { maxKeys: 4 },
    )
    .map((form) => ({
      method: 'POST',
      path: '/realms/payroll/protocol/openid-connect/token',
      host: `id.localhost:${port}`,
      contentType: 'application/x-www-form-urlencoded',
      headers: { Origin: `http://acme.localhost:${port}` },
      body: Buffer.from(new URLSearchParams({ grant_type: 'authorization_code', ...form }).toString()),
      framing: 'length' as const,
    })),
  // The hook, with its token, on every endpoint.
  fc.oneof(
    fc
      .record({
        advanceSeconds: fc.oneof(fc.integer({ min: -5, max: 3600 }), fc.constantFrom(1e300, -1, 0.5, Number.MAX_SAFE_INTEGER, 8.64e15, 1e9), anyValue),
      })
      .map((b) => hookCall('POST', '/clock', json(b))),
    fc.constant(null).map(() => hookCall('GET', '/clock', undefined)),
    fc
      .tuple(
        tenantLabel,
        fc.record(
          {
            email: fc.oneof(emailish, anyValue),
            firstName: anyValue,
            lastName: fc.string(),
            signIn: fc.oneof(fc.constantFrom('direct', 'embedded', 'x'), anyValue),
            password: fc.oneof(fc.string({ maxLength: 20 }), anyValue),
          },
          { requiredKeys: [] },
        ),
      )
      .map(([t, b]) => hookCall('POST', `/tenants/${t}/users`, json(b))),
    fc.tuple(tenantLabel, segment).map(([t, e]) => hookCall('POST', `/tenants/${t}/users/${e}/api-tokens`, json({}))),
    segment.map((e) => hookCall('POST', `/users/${e}/disable`, json({}))),
    fc
      .tuple(tenantLabel, fc.record({ name: anyValue, registrationNumber: anyValue }, { requiredKeys: [] }))
      .map(([t, b]) => hookCall('POST', `/tenants/${t}/businesses`, json(b))),
    fc
      .tuple(tenantLabel, segment, segment, fc.record({ access: fc.oneof(fc.constantFrom('read', 'none', 'write'), anyValue) }, { requiredKeys: [] }))
      .map(([t, id, e, b]) => hookCall('PUT', `/tenants/${t}/businesses/${id}/access/${e}`, json(b))),
    fc
      .tuple(tenantLabel, fc.record({ apiTokens: fc.oneof(fc.boolean(), anyValue) }, { requiredKeys: [] }))
      .map(([t, b]) => hookCall('PUT', `/tenants/${t}/features`, json(b))),
  ),
);

/** A live API token of alice, or '' when the fuzz has switched acme's API-token feature off. */
function liveToken(): string {
  try {
    return server.issueApiToken('acme', 'alice@acme.example');
  } catch {
    return '';
  }
}

function partnerCall(tenant: string, path: string, body: Buffer | undefined): FuzzRequest {
  const key = tenant === 'globex' ? { id: server.env.TACK_OTHER_PARTNER_CLIENT_ID!, secret: server.env.TACK_OTHER_PARTNER_SECRET! } : partner;
  return {
    method: 'POST',
    path,
    host: `${tenant}.localhost:${port}`,
    contentType: body === undefined ? undefined : 'application/json',
    headers: { 'Tenant-Key-1': key.id, 'Tenant-Key-2': key.secret },
    body,
    framing: 'length',
  };
}

function webCall(method: string, host: string, path: string, cookie: string | undefined, body: Buffer | undefined): FuzzRequest {
  const headers: Record<string, string> = cookie === undefined ? {} : { Cookie: cookie };
  return { method, path, host, contentType: body === undefined ? undefined : 'application/x-www-form-urlencoded', headers, body, framing: 'length' };
}

function hookCall(method: string, path: string, body: Buffer | undefined): FuzzRequest {
  return {
    method,
    path: `/__tack${path}`,
    host: `127.0.0.1:${port}`,
    contentType: body === undefined ? undefined : 'application/json',
    headers: { Authorization: `Bearer ${hookToken}` },
    body,
    framing: 'length',
  };
}

const request: fc.Arbitrary<FuzzRequest> = fc.oneof({ weight: 1, arbitrary: randomRequest }, { weight: 1, arbitrary: wellFormed });

function encode(r: FuzzRequest): { bytes: Buffer; truncated: boolean } {
  const lines = [`${r.method} ${r.path} HTTP/1.1`];
  if (r.host !== undefined) lines.push(`Host: ${r.host}`);
  if (r.contentType !== undefined) lines.push(`Content-Type: ${r.contentType}`);
  for (const [k, v] of Object.entries(r.headers)) {
    if (/^(host|content-length|transfer-encoding|connection|content-type)$/i.test(k)) continue;
    lines.push(`${k}: ${v}`);
  }
  lines.push('Connection: close');
  let payload: Buffer = Buffer.alloc(0);
  let truncated = false;
  if (r.body !== undefined) {
    if (r.framing === 'chunked') {
      lines.push('Transfer-Encoding: chunked');
      payload = Buffer.concat([Buffer.from(`${r.body.length.toString(16)}\r\n`), r.body, Buffer.from('\r\n0\r\n\r\n')]);
    } else if (r.framing === 'lying-length') {
      // Promises more than it sends, then closes its side: a body cut short.
      lines.push(`Content-Length: ${r.body.length + 50}`);
      payload = r.body;
      truncated = true;
    } else {
      lines.push(`Content-Length: ${r.body.length}`);
      payload = r.body;
    }
  }
  return { bytes: Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), payload]), truncated };
}

function describeRequest(r: FuzzRequest): string {
  return JSON.stringify({ ...r, body: r.body === undefined ? undefined : r.body.toString('base64') });
}

async function stillAnswers(): Promise<void> {
  const reply = await raw(Buffer.from(`GET /api/businesses/search HTTP/1.1\r\nHost: acme.localhost:${port}\r\nConnection: close\r\n\r\n`));
  expect(reply.status).toBe(401);
}

function heapMb(): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (() => void) | undefined;
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

describe('fuzzing the reference server', () => {
  it(
    'random requests on every host: never a 5xx, never a hang, never an unexpected error',
    async () => {
      const before = heapMb();
      await fc.assert(
        fc.asyncProperty(request, async (r) => {
          const { bytes, truncated } = encode(r);
          const reply = await raw(bytes, { endAfterWrite: truncated });
          const where = describeRequest(r);
          expect(reply.hung, `no answer and no close for ${where}`).toBe(false);
          if (reply.status !== undefined) expect(reply.status, `${reply.head}\n for ${where}`).toBeLessThan(500);
          // Node closes CONNECT requests itself when nobody listens for 'connect': a closed connection, not a crash.
          if (!truncated && r.method !== 'CONNECT') expect(reply.status, `no response for ${where}`).toBeDefined();
          expect(unexpected, `server logged an unexpected error for ${where}`).toEqual([]);
        }),
        { numRuns: Number(process.env.TACK_FUZZ_RUNS ?? 400), seed: Number(process.env.TACK_FUZZ_SEED ?? Date.now() % 2 ** 31) },
      );
      await stillAnswers();
      // Rough bound: 400 requests, some creating users and businesses, must not cost tens of MB.
      expect(heapMb() - before).toBeLessThan(40);
    },
    scaled(60_000),
  );

  it('bodies over the 64 KiB limit are refused with 413 on every JSON and form endpoint, with or without Content-Length', async () => {
    const huge = Buffer.alloc(70 * 1024, 'a');
    const targets: [string, string, string][] = [
      [`acme.localhost:${port}`, '/api/admin/users', 'application/json'],
      [`acme.localhost:${port}`, '/api/admin/authentication/token', 'application/json'],
      [`id.localhost:${port}`, '/realms/payroll/protocol/openid-connect/token', 'application/x-www-form-urlencoded'],
      [`id.localhost:${port}`, '/realms/payroll/protocol/openid-connect/revoke', 'application/x-www-form-urlencoded'],
      [`127.0.0.1:${port}`, '/__tack/clock', 'application/json'],
    ];
    for (const [h, p, ct] of targets) {
      const auth = h.startsWith('127.') ? `Authorization: Bearer ${hookToken}\r\n` : `Tenant-Key-1: ${partner.id}\r\nTenant-Key-2: ${partner.secret}\r\n`;
      const head = `POST ${p} HTTP/1.1\r\nHost: ${h}\r\nContent-Type: ${ct}\r\n${auth}Connection: close\r\n`;
      const withLength = await raw(Buffer.concat([Buffer.from(`${head}Content-Length: ${huge.length}\r\n\r\n`), huge]));
      expect(withLength.status, `${p} with Content-Length`).toBe(413);
      const chunked = await raw(
        Buffer.concat([Buffer.from(`${head}Transfer-Encoding: chunked\r\n\r\n${huge.length.toString(16)}\r\n`), huge, Buffer.from('\r\n0\r\n\r\n')]),
      );
      expect(chunked.status, `${p} chunked`).toBe(413);
    }
    await stillAnswers();
  });

  it('HTTP that is not HTTP is refused with 4xx or a closed connection, and the server goes on', async () => {
    const cases = [
      'GARBAGE\r\n\r\n',
      'GET\r\n\r\n',
      'GET / HTTP/9.9\r\nHost: acme.localhost\r\n\r\n',
      'GET /api/businesses/search HTTP/1.1\r\nHost acme.localhost\r\n\r\n',
      `GET /api/businesses/search HTTP/1.1\r\nHost: acme.localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      'POST /api/admin/users HTTP/1.1\r\nHost: acme.localhost\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      'POST /api/admin/users HTTP/1.1\r\nHost: acme.localhost\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n',
      'POST /api/admin/users HTTP/1.1\r\nHost: acme.localhost\r\nContent-Length: -1\r\n\r\n',
      'POST /api/admin/users HTTP/1.1\r\nHost: acme.localhost\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
      'GET /api/businesses/search\u00e9 HTTP/1.1\r\nHost: acme.localhost\r\n\r\n',
      'GET /api/businesses/search HTTP/1.1\r\nHost: acme.localhost\r\nX-Bin: \u00ff\u00fe\r\n\r\n',
      '\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003',
      'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
    ];
    for (const text of cases) {
      const reply = await raw(Buffer.from(text, 'latin1'), { endAfterWrite: true });
      expect(reply.hung, JSON.stringify(text.slice(0, 80))).toBe(false);
      if (reply.status !== undefined) expect(reply.status, JSON.stringify(text.slice(0, 80))).toBeLessThan(500);
    }
    // A request whose headers never end: the server's header timeout closes it (not waited for here).
    const slow = connect(port, '127.0.0.1');
    slow.write('GET / HTTP/1.1\r\nHost: acme.localhost\r\n');
    await stillAnswers();
    slow.destroy();
    expect(unexpected).toEqual([]);
  });

  it('many connections dropped mid-body leave nothing behind', async () => {
    const before = heapMb();
    for (let i = 0; i < 200; i++) {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(
        `POST /api/admin/users HTTP/1.1\r\nHost: acme.localhost:${port}\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{"email":"`,
      );
      await new Promise((resolve) => setImmediate(resolve));
      socket.destroy();
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    await stillAnswers();
    expect(heapMb() - before).toBeLessThan(20);
    expect(unexpected).toEqual([]);
  });
});
