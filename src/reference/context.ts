/**
 * What every handler gets: the server instance (`Reference`: clock, faults, data, stores, keys,
 * configuration) and the request (`RequestContext`). Handlers are plain functions of the context;
 * nothing is global, so two servers in one process never share state.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AccessTokens } from './access-token.js';
import type { Clock } from './clock.js';
import type { Business, Directory, Tenant } from './directory.js';
import type { FaultSet } from './faults.js';
import type { HookCapability } from './hook/capabilities.js';
import type { CodeStore } from './identity/codes.js';
import type { Passwords } from './passwords.js';
import type { Script } from './scripted-answers.js';
import type { ErrorLog } from './problem.js';
import type { MacKey } from './secrets.js';
import type { TokenStore } from './token-store.js';

interface ReferenceConfig {
  /** Sign-in client id (`payroll-portal`). */
  readonly clientId: string;
  /** Partner credential header names as configured (client id first, secret second). */
  readonly partnerHeaders: readonly [string, string];
  /** The same, lower-cased: Node lower-cases incoming header names. */
  readonly partnerHeaderKeys: readonly [string, string];
  readonly hookToken: string;
  /** Host names (lower-case, without port) at which `/__tack` is served. */
  readonly hookHosts: ReadonlySet<string>;
  /** Realm path of the sign-in server. */
  readonly realmPath: string;
  /** Path prefix of the test hook. */
  readonly hookPath: string;
  /** What the test hook offers (`GET /`); the endpoints of the others answer 404. */
  readonly hookCapabilities: readonly HookCapability[];
  /** Choices the spec leaves open, varied to prove tack does not depend on ours. */
  readonly dialect: Dialect;
  /**
   * Brute-force protection, as Keycloak's can be set: after this many refused sign-ins a user is
   * locked (until the server restarts), and every sign-in of theirs answers a page that says so,
   * without a form. Undefined: no lockout (the default).
   */
  readonly lockAfterFailedSignIns?: number;
}

/**
 * Where the spec says "not shown", the reference server picks one answer (docs/reference-server.md).
 * A dialect picks another, equally conformant one, so tack's own tests can show that tack passes
 * an implementation whose open choices differ from ours.
 */
export interface Dialect {
  /** Partner token response members: `accessToken` (camel) or `access_token` (snake). */
  readonly partnerFields: 'camel' | 'snake';
  /** First page of business search: 0 or 1. */
  readonly pageBase: 0 | 1;
  /** Query parameter names of business search paging (the spec does not name them). */
  readonly pageParams: { readonly index: string; readonly size: string };
  /** Items on a page when the page-size parameter is not sent (or sent under another name). */
  readonly defaultPageSize: number;
}

export const DEFAULT_DIALECT: Dialect = {
  partnerFields: 'camel',
  pageBase: 0,
  pageParams: { index: 'pageIndex', size: 'pageSize' },
  defaultPageSize: 20,
};

export interface Reference {
  readonly clock: Clock;
  readonly faults: FaultSet;
  readonly directory: Directory;
  /** Personal API tokens (the sign-in server's refresh tokens). */
  readonly apiTokens: TokenStore;
  /** Refresh tokens minted with a partner key. */
  readonly partnerTokens: TokenStore;
  readonly accessTokens: AccessTokens;
  /** Pending authorization codes of the sign-in pages (one-time, 60 s). */
  readonly codes: CodeStore;
  /** Passwords of users who sign in directly, hashed. */
  readonly passwords: Passwords;
  readonly mac: MacKey;
  readonly config: ReferenceConfig;
  readonly log: ErrorLog;
  /** The port once listening; 0 before. */
  port: number;
  /** The seeded user the `garbage-token-exchanges` fault hands tokens for. */
  readonly fallbackUserId: string;
  /** Fault `rotation-unsafe-under-concurrency`: the one slot all exchanges pass their token through. */
  racySlot: string | undefined;
  /** Milliseconds the token store takes to answer a rotation (store-delay.ts; 0: at once). */
  readonly storeDelayMs: number;
  /** Variant `rotation-locked-per-token`: the turn of the last exchange waiting for each presented token. */
  readonly tokenLocks: Map<string, Promise<void>>;
  /** Fault `permission-cached-per-token`: readable businesses remembered per access token. */
  readonly permissionCache: Map<string, readonly Business[]>;
  /** Scripted answers of `tack client`'s scenarios; undefined for a normal server. */
  readonly script: Script | undefined;
  /** Sign-ins refused for a wrong password, by user id (tests count them: `ReferenceServer.failedSignIns`). */
  readonly failedSignIns: Map<string, number>;
}

export interface RequestContext {
  readonly ref: Reference;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** Decoded path parameters. */
  readonly params: Readonly<Record<string, string>>;
  /** The raw query string, without `?`. */
  readonly query: string;
  /**
   * A listener bound to the sign-in role (`tack client`): its own address with the realm path, e.g.
   * `http://127.0.0.1:41003/realms/payroll`. Discovery there advertises it, not `id.localhost`.
   */
  readonly identityBase?: string;
}

/** A request to a tenant host: the tenant is the one named by the Host header. */
export interface TenantContext extends RequestContext {
  readonly tenant: Tenant;
}

export type Handler<C extends RequestContext = RequestContext> = (ctx: C) => Promise<void> | void;

/** Public base address of a tenant host, e.g. `http://acme.localhost:7070`. */
export function tenantUrl(ref: Reference, tenant: string): string {
  return `http://${tenant}.localhost:${ref.port}`;
}

/** Public origin of the sign-in server, e.g. `http://id.localhost:7070`. */
function identityOrigin(ref: Reference): string {
  return `http://id.localhost:${ref.port}`;
}

/** The sign-in server's base address with its realm path (`TACK_IDENTITY_URL`): the OpenID issuer. */
export function identityUrl(ref: Reference): string {
  return identityOrigin(ref) + ref.config.realmPath;
}

/**
 * The issuer a request to the sign-in server is answered as: the address it was sent to when its
 * listener serves the sign-in role alone (what a client was given), the Host-routed one otherwise.
 */
export function issuerOf(ctx: RequestContext): string {
  return ctx.identityBase ?? identityUrl(ctx.ref);
}
