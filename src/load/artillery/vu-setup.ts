/**
 * What the Artillery processor needs besides the profiles: the target, read from the TACK_*
 * variables at run time (never written into the exported files), the loopback guard, and the setup
 * calls a virtual user makes for its chain (through the test hook or the partner key), over
 * node:http, since the processor is one self-contained file on Artillery's runners.
 *
 * Like tack, it sends load only to loopback targets unless TACK_ALLOW_REMOTE=1 (set it on runners
 * that load a target you own: Artillery's distributed runners are never on the target's machine),
 * and resolves `*.localhost` to 127.0.0.1 itself. It never prints a token.
 */
import { randomBytes } from 'node:crypto';
import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { findAccessToken, findRefreshToken } from '../../harness/clients/fields.js';
import { accessTolerance, PATHS } from '../../spec.js';
import type { Tally } from '../engine/engine.js';
import { isLocalhostName, isLoopbackAddress, type Endpoint } from '../engine/target.js';
import type { VuContext } from './form.js';

/** The configuration defaults tack itself uses (config/schema.ts), handed in when the processor is written. */
export interface ProcessorDefaults {
  readonly clientId: string;
  readonly partnerHeaders: readonly [string, string];
  readonly accessToleranceS: number;
  readonly maxAccessToleranceS: number;
}

export interface Settings {
  readonly base: URL;
  readonly identity: URL;
  /** The tenant's name: the first label of TACK_BASE_URL's host, as tack takes it. */
  readonly tenant: string;
  readonly clientId: string;
  readonly hook: { readonly url: URL; readonly token: string } | undefined;
  readonly partner: { readonly id: string; readonly secret: string; readonly headers: readonly string[] } | undefined;
  readonly accessField: string | undefined;
  readonly refreshField: string | undefined;
  /** TACK_ACCESS_TOLERANCE_S as tack uses it. */
  readonly accessToleranceS: number;
  readonly insecure: boolean;
  readonly allowRemote: boolean;
}

type Env = Readonly<Record<string, string | undefined>>;

function given(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v === undefined || v === '' ? undefined : v;
}

function required(env: Env, name: string): string {
  const v = given(env, name);
  if (v === undefined) throw new Error(`${name} is not set: the tack Artillery processor reads the target from the environment`);
  return v;
}

const url = (env: Env, name: string) => new URL(required(env, name).replace(/\/+$/, ''));

export function readSettings(env: Env, defaults: ProcessorDefaults): Settings {
  const base = url(env, 'TACK_BASE_URL');
  const headers =
    given(env, 'TACK_PARTNER_HEADERS')
      ?.split(',')
      .map((h) => h.trim()) ?? defaults.partnerHeaders;
  if (headers.length !== 2) throw new Error('TACK_PARTNER_HEADERS must be two HTTP header names separated by a comma, e.g. Tenant-Key-1,Tenant-Key-2');
  const toleranceText = given(env, 'TACK_ACCESS_TOLERANCE_S');
  const tolerance = toleranceText === undefined ? defaults.accessToleranceS : Number(toleranceText);
  if (!Number.isInteger(tolerance) || tolerance < 0 || tolerance > defaults.maxAccessToleranceS) {
    throw new Error(`TACK_ACCESS_TOLERANCE_S must be a whole number of seconds from 0 to ${defaults.maxAccessToleranceS} (got "${toleranceText}")`);
  }
  return {
    base,
    identity: url(env, 'TACK_IDENTITY_URL'),
    tenant: base.hostname.split('.')[0] ?? base.hostname,
    clientId: given(env, 'TACK_CLIENT_ID') ?? defaults.clientId,
    hook: given(env, 'TACK_HOOK_URL') ? { url: url(env, 'TACK_HOOK_URL'), token: required(env, 'TACK_HOOK_TOKEN') } : undefined,
    partner: given(env, 'TACK_PARTNER_CLIENT_ID')
      ? { id: required(env, 'TACK_PARTNER_CLIENT_ID'), secret: required(env, 'TACK_PARTNER_SECRET'), headers }
      : undefined,
    accessField: given(env, 'TACK_PARTNER_ACCESS_TOKEN_FIELD'),
    refreshField: given(env, 'TACK_PARTNER_REFRESH_TOKEN_FIELD'),
    accessToleranceS: accessTolerance({ accessToleranceS: tolerance }),
    insecure: env.TACK_INSECURE_TLS === '1' || env.TACK_INSECURE_TLS === 'true',
    allowRemote: env.TACK_ALLOW_REMOTE === '1',
  };
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup, with `*.localhost` answered as 127.0.0.1 (RFC 6761), as tack does. */
export function lookup(hostname: string, options: LookupOptions | LookupCallback, callback?: LookupCallback): void {
  const done = (typeof options === 'function' ? options : callback)!;
  const opts = typeof options === 'function' ? {} : options;
  if (isLocalhostName(hostname)) {
    if (opts.all) process.nextTick(done, null, [{ address: '127.0.0.1', family: 4 }]);
    else process.nextTick(done, null, '127.0.0.1', 4);
    return;
  }
  dns.lookup(hostname, opts, done as never);
}

/** Resolves every host the run talks to, and refuses a non-loopback one unless TACK_ALLOW_REMOTE=1. */
export async function checkTargets(s: Settings): Promise<void> {
  for (const u of [s.base, s.identity, ...(s.hook ? [s.hook.url] : [])]) {
    const name = u.hostname.replace(/^\[|\]$/g, '');
    let addresses: string[];
    if (isLocalhostName(name)) addresses = ['127.0.0.1'];
    else if (isIP(name)) addresses = [name];
    else addresses = (await dns.promises.lookup(name, { all: true })).map((a) => a.address);
    if (!addresses.some(isLoopbackAddress) && !s.allowRemote) {
      throw new Error(`${u.origin} is not on this machine: tack's processor sends load only to loopback targets unless TACK_ALLOW_REMOTE=1`);
    }
  }
}

/** A target URL as the profiles' requests address it: sent to its own host (`lookup` maps `*.localhost`). */
export function endpointOf(u: URL): Endpoint {
  const name = u.hostname.replace(/^\[|\]$/g, '');
  return { connectUrl: u.origin, host: u.host, pathPrefix: u.pathname.replace(/\/+$/, ''), servername: undefined, loopback: isLocalhostName(name) };
}

interface Answer {
  readonly status: number;
  readonly json: unknown;
}

/** One JSON call for setup (hook, partner key). */
function call(s: Settings, method: string, to: URL, headers: Record<string, string>, body: unknown): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const client = to.protocol === 'https:' ? https : http;
  const contentType: Record<string, string> = payload === undefined ? {} : { 'content-type': 'application/json' };
  return new Promise((resolve, reject) => {
    const req = client.request(
      to,
      { method, lookup, rejectUnauthorized: !s.insecure, timeout: 10_000, headers: { accept: 'application/json', ...headers, ...contentType } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => {
          let json: unknown;
          try {
            json = text === '' ? undefined : JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, json });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${to.origin}${to.pathname}: no answer within 10 s`)));
    req.on('error', reject);
    req.end(payload);
  });
}

const under = (u: URL, path: string) => new URL(u.href.replace(/\/+$/, '') + path);

function expectStatus(res: Answer, ok: (status: number) => boolean, what: string, expected: string): unknown {
  if (!ok(res.status)) throw new Error(`${what} answered ${res.status}, expected ${expected}`);
  return res.json;
}
const is = (n: number) => (status: number) => status === n;
const is2xx = (status: number) => status >= 200 && status <= 299;

const emailFor = () => `tack+art${Date.now().toString(36)}${randomBytes(3).toString('hex')}.load@example.com`;

/** The setup calls of one VU (form.ts `VuContext`). */
export function vuContext(s: Settings, tally: Tally): VuContext {
  const hookCall = (method: string, path: string, body: unknown) => {
    if (!s.hook) {
      throw new Error(
        "this profile needs the target's test hook for its chains: set TACK_HOOK_URL and TACK_HOOK_TOKEN (hookless token pools stay with tack load --shard)",
      );
    }
    return call(s, method, under(s.hook.url, path), { authorization: `Bearer ${s.hook.token}` }, body);
  };
  const tenantPath = `/tenants/${encodeURIComponent(s.tenant)}`;
  return {
    identity: endpointOf(s.identity),
    tenant: endpointOf(s.base),
    clientId: s.clientId,
    accessToleranceS: s.accessToleranceS,
    tally,
    async hookUserWithApiToken() {
      const email = emailFor();
      const user = { email, firstName: 'Load', lastName: 'Artillery', signIn: 'direct' };
      expectStatus(await hookCall('POST', `${tenantPath}/users`, user), is(201), 'creating a user through the test hook', '201');
      const path = `${tenantPath}/users/${encodeURIComponent(email)}/api-tokens`;
      const token = expectStatus(await hookCall('POST', path, {}), is(201), 'generating an API token', '201') as { apiToken?: unknown } | undefined;
      if (typeof token?.apiToken !== 'string') throw new Error('the test hook answered 201 without an apiToken');
      return { email, apiToken: token.apiToken };
    },
    async grantReadToNewBusiness(email) {
      const fields = { name: `Load ${email}`, registrationNumber: randomBytes(4).toString('hex') };
      const created = await hookCall('POST', `${tenantPath}/businesses`, fields);
      const business = expectStatus(created, is(201), 'creating a business through the test hook', '201') as { id?: unknown } | undefined;
      const path = `${tenantPath}/businesses/${encodeURIComponent(String(business?.id))}/access/${encodeURIComponent(email)}`;
      expectStatus(await hookCall('PUT', path, { access: 'read' }), is(204), 'granting read access', '204');
    },
    async partnerUser() {
      if (!s.partner) throw new Error('this profile needs the partner key: set TACK_PARTNER_CLIENT_ID and TACK_PARTNER_SECRET');
      const credentials = { [s.partner.headers[0]!]: s.partner.id, [s.partner.headers[1]!]: s.partner.secret };
      const user = emailFor();
      const created = await call(s, 'POST', under(s.base, PATHS.users), credentials, { email: user, firstName: 'Load', lastName: 'Artillery' });
      expectStatus(created, is2xx, 'creating a user with the partner key', '201');
      // The token fields are found on one real mint, then read directly on every answer, as tack does.
      const mint = await call(s, 'POST', under(s.base, PATHS.mint), credentials, { username: user });
      const minted = expectStatus(mint, is2xx, 'minting a token for a user just created', '2xx');
      const access = findAccessToken(minted, s.accessField);
      if (!access) throw new Error('the mint answer has no access token tack could find (set TACK_PARTNER_ACCESS_TOKEN_FIELD)');
      const refresh = findRefreshToken(minted, s.refreshField);
      const wire = { tenant: endpointOf(s.base), credentials, accessField: access.field, refreshField: refresh?.field };
      return { user, wire, refreshToken: refresh?.value };
    },
  };
}
