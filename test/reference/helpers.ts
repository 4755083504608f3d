/**
 * Real HTTP against a reference server on loopback. `*.localhost` does not resolve everywhere, so
 * every call connects to 127.0.0.1:PORT and names the virtual host in the Host header.
 */
import { request } from 'undici';
import { type ReferenceOptions, type ReferenceServer, startReferenceServer } from '../../src/reference/index.js';

export interface Reply {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly text: string;
  /** The body parsed as JSON (throws when it is not). */
  json<T = Record<string, unknown>>(): T;
}

export interface CallOptions {
  readonly headers?: Record<string, string>;
  readonly json?: unknown;
  readonly form?: Record<string, string>;
  readonly body?: string | Buffer;
}

/** `host` is a tenant name, `id` (sign-in server), `hook` (127.0.0.1), or a literal Host header. */
export async function call(server: ReferenceServer, host: string, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { host: hostHeader(server, host), ...options.headers };
  let body: string | Buffer | undefined = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  }
  if (options.form !== undefined) {
    body = new URLSearchParams(options.form).toString();
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  }
  const response = await request(`http://127.0.0.1:${server.port}${path}`, { method: method as 'GET', headers, body });
  const text = await response.body.text();
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return {
    status: response.statusCode,
    headers: flat,
    text,
    json<T>() {
      return JSON.parse(text) as T;
    },
  };
}

function hostHeader(server: ReferenceServer, host: string): string {
  if (host === 'hook') return `127.0.0.1:${server.port}`;
  if (host === 'id') return `id.localhost:${server.port}`;
  if (/^[a-z0-9-]+$/.test(host)) return `${host}.localhost:${server.port}`;
  return host;
}

export function start(options: ReferenceOptions = {}): Promise<ReferenceServer> {
  return startReferenceServer(options);
}

export const ALICE = 'alice@acme.example';
export const BOB = 'bob@globex.example';
export const CASEY = 'casey@both.example';
export const DANA = 'dana@acme.example';

export function partnerKey(server: ReferenceServer, tenant: 'acme' | 'globex' = 'acme'): Record<string, string> {
  const [idName, secretName] = (server.env['TACK_PARTNER_HEADERS'] ?? '').split(',') as [string, string];
  return tenant === 'acme'
    ? { [idName]: server.env['TACK_PARTNER_CLIENT_ID'] ?? '', [secretName]: server.env['TACK_PARTNER_SECRET'] ?? '' }
    : { [idName]: server.env['TACK_OTHER_PARTNER_CLIENT_ID'] ?? '', [secretName]: server.env['TACK_OTHER_PARTNER_SECRET'] ?? '' };
}

export function hook(server: ReferenceServer, method: string, path: string, json?: unknown): Promise<Reply> {
  return call(server, 'hook', method, `/__tack${path}`, {
    headers: { authorization: `Bearer ${server.env['TACK_HOOK_TOKEN'] ?? ''}` },
    ...(json === undefined ? {} : { json }),
  });
}

export async function apiToken(server: ReferenceServer, email = ALICE, tenant = 'acme'): Promise<string> {
  const reply = await hook(server, 'POST', `/tenants/${tenant}/users/${encodeURIComponent(email)}/api-tokens`, {});
  if (reply.status !== 201) throw new Error(`api token: ${reply.status} ${reply.text}`);
  return reply.json<{ apiToken: string }>().apiToken;
}

export function exchange(server: ReferenceServer, refreshToken: string, extra: Record<string, string> = {}): Promise<Reply> {
  return call(server, 'id', 'POST', '/realms/payroll/protocol/openid-connect/token', {
    form: { grant_type: 'refresh_token', client_id: 'payroll-portal', refresh_token: refreshToken, ...extra },
  });
}

export function revoke(server: ReferenceServer, token: string): Promise<Reply> {
  return call(server, 'id', 'POST', '/realms/payroll/protocol/openid-connect/revoke', {
    form: { client_id: 'payroll-portal', token_type_hint: 'refresh_token', token },
  });
}

export async function mint(
  server: ReferenceServer,
  username: string,
  tenant: 'acme' | 'globex' = 'acme',
): Promise<{ accessToken: string; refreshToken: string }> {
  const reply = await call(server, tenant, 'POST', '/api/admin/authentication/token', { headers: partnerKey(server, tenant), json: { username } });
  if (reply.status !== 200) throw new Error(`mint: ${reply.status} ${reply.text}`);
  return reply.json();
}

export function search(server: ReferenceServer, tenant: string, accessToken: string | undefined, query = ''): Promise<Reply> {
  return call(server, tenant, 'GET', `/api/businesses/search${query}`, {
    headers: accessToken === undefined ? {} : { authorization: `Bearer ${accessToken}` },
  });
}

export async function signIn(server: ReferenceServer, email = ALICE, tenant = 'acme'): Promise<{ accessToken: string; refreshToken: string }> {
  const reply = await exchange(server, await apiToken(server, email, tenant));
  const body = reply.json<{ access_token: string; refresh_token: string }>();
  return { accessToken: body.access_token, refreshToken: body.refresh_token };
}

export function advance(server: ReferenceServer, seconds: number): Promise<Reply> {
  return hook(server, 'POST', '/clock', { advanceSeconds: seconds });
}

export const DAY_SECONDS = 86_400;

/** Asserts an RFC 7807 body whose status equals the HTTP status. */
export function problem(reply: Reply): { type: string; title: string; status: number; detail: string } {
  if (!reply.headers['content-type']?.startsWith('application/problem+json')) {
    throw new Error(`expected a problem, got ${reply.status} ${reply.headers['content-type'] ?? ''} ${reply.text}`);
  }
  const body = reply.json<{ type: string; title: string; status: number; detail: string }>();
  if (body.status !== reply.status || typeof body.type !== 'string' || typeof body.title !== 'string' || typeof body.detail !== 'string') {
    throw new Error(`not a complete problem: ${reply.text}`);
  }
  return body;
}

export function names(reply: Reply): string[] {
  return reply.json<{ items: { name: string }[] }>().items.map((item) => item.name);
}
