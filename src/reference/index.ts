/**
 * The built-in reference server of tack: the whole spec in memory, on one loopback port, routed by
 * Host, with the `tack-hook/1` test hook and named faults. `docs/reference-server.md` lists every
 * choice it makes where the spec says "not shown".
 *
 *   const server = await startReferenceServer({ faults: ['revoke-no-op'] });
 *   server.env.TACK_BASE_URL  // http://acme.localhost:PORT
 *   await server.close();
 *
 * `tack client` starts the same server in its scripted, recording mode: one more loopback port per
 * host role (`rolePorts`), rotated-out tokens refused at once (`strictRotation`), scripted answers
 * (`script`) and every exchange recorded (`recorder`).
 */
import { AccessTokens } from './access-token.js';
import { DAY, HOUR, OffsetClock } from './clock.js';
import { DEFAULT_DIALECT, type Dialect, type Reference } from './context.js';
import { Directory } from './directory.js';
import { buildEnv } from './env.js';
import { FAULTS, type FaultInfo, type FaultSet, parseFaults } from './faults.js';
import { generateApiToken } from './hook/api-tokens.js';
import { parseCapabilities } from './hook/capabilities.js';
import { hookHostsFor, type HostKind, urlHostFor } from './host.js';
import { defaultErrorLog } from './problem.js';
import type { ClientRecorder } from './client-recorder.js';
import { createRequestListener } from './router.js';
import { Script, type ScriptStep } from './scripted-answers.js';
import { MacKey, randomSecret } from './secrets.js';
import { CodeStore } from './identity/codes.js';
import { Passwords } from './passwords.js';
import { PRIMARY_USER, SEED_PASSWORD, seed, SEED_TENANTS, seedPasswords } from './seed.js';
import { listen } from './server.js';
import { type ReusePolicy, TokenStore } from './token-store.js';

export { FAULTS, type FaultInfo };

export interface ReferenceOptions {
  /** TCP port; default 0 = an ephemeral port. */
  port?: number;
  /** Address to bind; default '127.0.0.1' (loopback only). */
  bind?: string;
  /** Names of faults to inject (see FAULTS); an unknown name throws. */
  faults?: readonly string[];
  /** Partner credential header names; default ['Tenant-Key-1', 'Tenant-Key-2']. */
  partnerHeaders?: readonly [string, string];
  /** Bearer token of the test hook; default random. */
  hookToken?: string;
  /** The capabilities the test hook offers; default all it implements (a target's hook may offer fewer). */
  hookCapabilities?: readonly string[];
  /** Sign-in client id; default 'payroll-portal'. */
  clientId?: string;
  /** Names of tenants A and B; default ['acme', 'globex']. */
  tenants?: readonly [string, string];
  /** Realm path of the sign-in server; default '/realms/payroll'. */
  realmPath?: string;
  /** Other answers to what the spec leaves open (see Dialect); default camelCase fields, 0-based paging. */
  dialect?: Partial<Dialect>;
  /**
   * Also listen on one loopback port per host role (each tenant, the sign-in server), where every
   * request is routed as that host whatever its Host header (`roleUrls`). For `tack client`.
   */
  rolePorts?: boolean;
  /** Refuse rotated-out API and partner refresh tokens at once, as Keycloak does (default: one-step grace). */
  strictRotation?: boolean;
  /** Lock a user after this many refused sign-ins: each later sign-in answers a "temporarily locked" page without a form (default: never). */
  lockAfterFailedSignIns?: number;
  /**
   * Milliseconds the token store takes to answer a rotation, a real wait (store-delay.ts): the
   * window in which exchanges sent together overlap. Default 0, or the delay a race fault or
   * variant brings (`FaultInfo.storeDelayMs`).
   */
  storeDelayMs?: number;
  /** Scripted answers (`tack client`'s scenarios). */
  script?: readonly ScriptStep[];
  /** Steps `setScript` may bring later (their routes are checked at start, with `script`'s). */
  laterScript?: readonly ScriptStep[];
  /** Records every exchange of every listener (`tack client`). */
  recorder?: ClientRecorder;
}

export interface ReferenceServer {
  port: number;
  /** e.g. tenants.acme = 'http://acme.localhost:PORT', identity = 'http://id.localhost:PORT/realms/payroll', hook = 'http://127.0.0.1:PORT/__tack' */
  urls: { tenants: Record<string, string>; identity: string; hook: string };
  /**
   * The TACK_* variables of target-config.md for this server, hook mode (holds secrets). Without
   * TACK_USER_EMAIL, which tack's config accepts only together with TACK_API_TOKEN_FILE (hookless
   * mode): see `userEmail` and `issueApiToken`.
   */
  env: Record<string, string>;
  /** The seeded direct user of tenant A (acme) who reads a few businesses: TACK_USER_EMAIL in hookless mode. */
  userEmail: string;
  /** That user's password (every seeded user has it): TACK_USER_PASSWORD in hookless mode. */
  userPassword: string;
  faults: readonly string[];
  /** With `rolePorts`: each tenant's and the sign-in server's own port, e.g. `http://127.0.0.1:41001`. */
  roleUrls: { tenants: Record<string, string>; identity: string } | undefined;
  /** Generate a personal API token for a seeded/hook-created user without going through HTTP (used by `tack serve --hookless` to write a token file). */
  issueApiToken(tenant: string, email: string): string;
  /** Revoke a personal API token without going through HTTP (a scenario's setup); whether it was live. */
  revokeApiToken(token: string): boolean;
  /** Scripted answers from now on (a scenario's next run); only for a server started with `script`. */
  setScript(steps: readonly ScriptStep[]): void;
  /** Create `count` businesses in `tenant` that `email` may read (a scenario's setup). */
  addReadableBusinesses(tenant: string, email: string, count: number): void;
  /** Tests: the chains of live API tokens of a user (their ids stay the same across rotations). */
  liveApiTokenChains(email: string): number[];
  /** Milliseconds the token store takes to answer a rotation (`storeDelayMs`, or what a race fault brings). */
  storeDelayMs: number;
  /** Tests: how many chains of live API tokens the server holds, of every user. */
  liveApiTokens(): number;
  /** Tests: how many sign-ins of a user the sign-in page refused for a wrong password. */
  failedSignIns(email: string): number;
  /** Closes the server and all keep-alive sockets promptly. */
  close(): Promise<void>;
}

const DEFAULT_PARTNER_HEADERS: readonly [string, string] = ['Tenant-Key-1', 'Tenant-Key-2'];
const DEFAULT_CLIENT_ID = 'payroll-portal';
const REALM_PATH = '/realms/payroll';
const HOOK_PATH = '/__tack';

/** Personal API tokens: 30 days unused, 90 days absolute (spec §3, §8). */
const API_TOKEN_LIMITS = { idleMs: 30 * DAY, absoluteMs: 90 * DAY };
/** Partner refresh tokens (spec: not shown): 24 hours unused, 30 days absolute. */
const PARTNER_REFRESH_LIMITS = { idleMs: 24 * HOUR, absoluteMs: 30 * DAY };
/** How often (real time) expired tokens are swept; lookups evict them earlier. */
const SWEEP_INTERVAL_MS = 60_000;

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const RESERVED_HEADERS = new Set(['host', 'authorization', 'content-type', 'content-length', 'transfer-encoding', 'connection', 'cookie']);

export async function startReferenceServer(options: ReferenceOptions = {}): Promise<ReferenceServer> {
  const faults = parseFaults(options.faults ?? []);
  const partnerHeaders = checkPartnerHeaders(options.partnerHeaders ?? DEFAULT_PARTNER_HEADERS);
  const bind = options.bind ?? '127.0.0.1';
  const clientId = options.clientId ?? DEFAULT_CLIENT_ID;
  const hookToken = options.hookToken ?? randomSecret(32);
  const hookCapabilities = parseCapabilities(options.hookCapabilities);
  if (clientId === '' || hookToken === '') throw new Error('clientId and hookToken must not be empty');

  const clock = new OffsetClock();
  const mac = new MacKey();
  const directory = new Directory();
  const [tenantA, tenantB] = checkTenantNames(options.tenants ?? [SEED_TENANTS[0].name, SEED_TENANTS[1].name]);
  const renamed: Record<string, string> = { [SEED_TENANTS[0].name]: tenantA, [SEED_TENANTS[1].name]: tenantB };
  const fallbackUserId = seed(directory, (name) => renamed[name] ?? name);
  const passwords = new Passwords();
  seedPasswords(directory, passwords);
  const realmPath = options.realmPath ?? REALM_PATH;
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(realmPath)) throw new Error(`realmPath must be a path like /realms/payroll, got ${realmPath}`);
  const apiLimits = {
    idleMs: faults.has('idle-limit-31-days') ? 31 * DAY : faults.has('idle-limit-29-days') ? 29 * DAY : API_TOKEN_LIMITS.idleMs,
    absoluteMs: faults.has('absolute-limit-89-days') ? 89 * DAY : API_TOKEN_LIMITS.absoluteMs,
  };

  const ref: Reference = {
    clock,
    faults,
    directory,
    apiTokens: new TokenStore({ prefix: 'tpat', limits: apiLimits, clock, mac, reuse: reusePolicy(faults, options.strictRotation ?? false) }),
    partnerTokens: new TokenStore({ prefix: 'tprt', limits: PARTNER_REFRESH_LIMITS, clock, mac, strict: options.strictRotation ?? false }),
    accessTokens: new AccessTokens(mac, clock),
    codes: new CodeStore(clock),
    passwords,
    mac,
    config: {
      clientId,
      partnerHeaders,
      partnerHeaderKeys: [partnerHeaders[0].toLowerCase(), partnerHeaders[1].toLowerCase()],
      hookToken,
      hookHosts: hookHostsFor(bind),
      realmPath,
      hookPath: HOOK_PATH,
      hookCapabilities,
      dialect: { ...DEFAULT_DIALECT, ...(options.dialect ?? {}) },
      ...(options.lockAfterFailedSignIns === undefined ? {} : { lockAfterFailedSignIns: options.lockAfterFailedSignIns }),
    },
    log: defaultErrorLog,
    port: 0,
    fallbackUserId,
    racySlot: undefined,
    storeDelayMs: storeDelayOf(faults, options.storeDelayMs),
    tokenLocks: new Map(),
    permissionCache: new Map(),
    script: options.script === undefined ? undefined : new Script(options.script, options.laterScript),
    failedSignIns: new Map(),
  };

  const recorder = options.recorder;
  const listenerFor = (label: string, role?: HostKind) => {
    const listener = createRequestListener(ref, role);
    return recorder === undefined ? listener : recorder.wrap(label, listener);
  };
  const listening = await listen(listenerFor('host'), options.port ?? 0, bind);
  ref.port = listening.port;
  const roles = options.rolePorts === true ? await listenPerRole([tenantA, tenantB], bind, realmPath, listenerFor) : undefined;
  const sweeper = setInterval(() => {
    ref.apiTokens.sweep();
    ref.partnerTokens.sweep();
    ref.codes.sweep();
  }, SWEEP_INTERVAL_MS);
  sweeper.unref();

  const port = listening.port;
  const urls = {
    tenants: Object.fromEntries([tenantA, tenantB].map((name) => [name, `http://${name}.localhost:${port}`])),
    identity: `http://id.localhost:${port}${realmPath}`,
    hook: `http://${urlHostFor(bind)}:${port}${HOOK_PATH}`,
  };
  const env = buildEnv({
    urls,
    directory,
    partnerHeaders,
    clientId,
    hookToken,
    tenantA,
    tenantB,
  });

  let closing: Promise<void> | undefined;
  return {
    port,
    urls,
    roleUrls: roles?.urls,
    env,
    userEmail: PRIMARY_USER,
    userPassword: SEED_PASSWORD,
    faults: faults.list(),
    storeDelayMs: ref.storeDelayMs,
    issueApiToken(tenant: string, email: string): string {
      const found = directory.tenant(tenant);
      if (found === undefined) throw new Error(`No tenant named ${tenant}`);
      return generateApiToken(ref, found, email);
    },
    revokeApiToken(token: string): boolean {
      return ref.apiTokens.revoke(token);
    },
    setScript(steps: readonly ScriptStep[]): void {
      if (ref.script === undefined) throw new Error('setScript needs a server started with a script');
      ref.script.replace(steps);
    },
    addReadableBusinesses(tenant: string, email: string, count: number): void {
      const found = directory.tenant(tenant);
      const user = directory.userByEmail(email);
      if (found === undefined || user === undefined) throw new Error(`No tenant ${tenant} or user ${email}`);
      for (let i = 1; i <= count; i++) {
        const business = directory.createBusiness(found, `${found.displayName} Branch ${String(i).padStart(3, '0')}`, `${tenant.toUpperCase()}-B${i}`);
        directory.setAccess(business, user, 'read');
      }
    },
    liveApiTokenChains(email: string): number[] {
      const user = directory.userByEmail(email);
      return user === undefined ? [] : ref.apiTokens.grantsOf(user.id).map((grant) => grant.chainId);
    },
    liveApiTokens(): number {
      ref.apiTokens.sweep();
      return ref.apiTokens.size;
    },
    failedSignIns(email: string): number {
      const user = directory.userByEmail(email);
      return user === undefined ? 0 : (ref.failedSignIns.get(user.id) ?? 0);
    },
    close(): Promise<void> {
      clearInterval(sweeper);
      closing ??= Promise.all([listening.close(), ...(roles?.listening ?? []).map((l) => l.close())]).then(() => undefined);
      return closing;
    },
  };
}

type Listener = Parameters<typeof listen>[0];

/** What the API-token store does with the token just rotated out: a variant's policy, strict, or the one-step grace. */
function reusePolicy(faults: FaultSet, strict: boolean): ReusePolicy {
  if (faults.has('rotation-reuse-once')) return 'once';
  if (faults.has('rotation-reuse-ends-chain') || faults.has('reuse-detection-bypassed-by-overlap')) return 'ends-chain';
  if (faults.has('rotation-coalesces-keeps-presented')) return 'refused';
  return strict ? 'refused' : 'grace';
}

/** The store's delay: as set, else the largest a fault or variant brings, else none. */
function storeDelayOf(faults: FaultSet, set: number | undefined): number {
  if (set !== undefined) {
    if (!Number.isInteger(set) || set < 0 || set > 10_000) throw new Error(`storeDelayMs must be a whole number of milliseconds, 0 to 10000, got ${set}`);
    return set;
  }
  const active = new Set<string>(faults.list());
  const brought = FAULTS.filter((f) => active.has(f.name)).map((f) => f.storeDelayMs ?? 0);
  return Math.max(0, ...brought);
}

/** One loopback port per host role: each tenant, then the sign-in server (its URL keeps the realm path). */
async function listenPerRole(tenants: readonly string[], bind: string, realmPath: string, listenerFor: (label: string, role: HostKind) => Listener) {
  const host = urlHostFor(bind);
  const listening = [];
  const urls = { tenants: {} as Record<string, string>, identity: '' };
  for (const tenant of tenants) {
    const one = await listen(listenerFor(`tenant:${tenant}`, { kind: 'tenant', tenant }), 0, bind);
    listening.push(one);
    urls.tenants[tenant] = `http://${host}:${one.port}`;
  }
  const identity = await listen(listenerFor('identity', { kind: 'identity' }), 0, bind);
  listening.push(identity);
  urls.identity = `http://${host}:${identity.port}${realmPath}`;
  return { listening, urls };
}

function checkPartnerHeaders(names: readonly [string, string]): readonly [string, string] {
  const [idName, secretName] = names;
  for (const name of names) {
    if (!HEADER_NAME.test(name)) throw new Error(`Partner header name ${JSON.stringify(name)} is not a valid HTTP header name`);
    if (RESERVED_HEADERS.has(name.toLowerCase())) throw new Error(`Partner header name ${name} is reserved by HTTP`);
  }
  if (idName.toLowerCase() === secretName.toLowerCase()) throw new Error('The two partner header names must differ');
  return [idName, secretName];
}

/** Tenant names are host labels: lower-case letters, digits and hyphens; not `id` (the sign-in host). */
function checkTenantNames(names: readonly [string, string]): readonly [string, string] {
  for (const name of names) {
    if (!/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(name) || name === 'id' || name === 'hook') {
      throw new Error(`tenant name ${JSON.stringify(name)} is not a usable host label (lower-case letters, digits, hyphens; not id or hook)`);
    }
  }
  if (names[0] === names[1]) throw new Error('the two tenant names must differ');
  return names;
}
