/**
 * The partner key check that precedes every admin call (spec §5, §7):
 *
 * 1. readCredentials  both configured headers, names matched case-insensitively (Node lower-cases
 *                     incoming names), values non-empty; otherwise 401 missing_credentials;
 * 2. findKey          the tenant whose key has this client id, and a timing-safe comparison of the
 *                     secret (an unknown client id still costs one comparison); otherwise 401;
 * 3. bindTenant       the key must belong to the tenant of the host called; otherwise 401.
 *
 * All three refusals carry the same challenge; the detail says which header is missing but never
 * whether a client id exists.
 */
import type { IncomingMessage } from 'node:http';
import type { Reference, TenantContext } from '../context.js';
import type { Tenant } from '../directory.js';
import { unauthorized } from '../errors.js';
import { safeEqual } from '../secrets.js';

interface Credentials {
  readonly clientId: string;
  readonly secret: string;
}

/** Which admin call checks the key: each calls requirePartnerKey first. */
type AdminCall = 'mint' | 'refresh' | 'create-user' | 'reset-password';

/**
 * Returns the tenant of the presented key (the host's tenant unless a fault says otherwise).
 * PARTNER-HEADERS-REQUIRED, PARTNER-BAD-CREDENTIALS, PARTNER-SECRET-EXACT, PARTNER-TENANT-BINDING,
 * PARTNER-HEADER-NAMES: every admin call runs these steps first.
 */
export function requirePartnerKey(ctx: TenantContext, call: AdminCall): Tenant {
  if (call !== 'mint' && ctx.ref.faults.has('partner-key-checked-on-mint-only')) return ctx.tenant;
  const credentials = readCredentials(ctx);
  if (credentials === undefined) {
    if (ctx.ref.faults.has('missing-partner-headers-accepted')) return ctx.tenant;
    throw refusal(ctx, 'missing_credentials', `Both ${ctx.ref.config.partnerHeaders.join(' and ')} headers are required.`);
  }
  const keyTenant = findKey(ctx.ref, credentials);
  if (keyTenant === undefined) throw refusal(ctx, 'invalid_credentials', 'The partner credentials are not valid.');
  if (call === 'refresh' && ctx.ref.faults.has('partner-refresh-any-tenant-key')) return ctx.tenant;
  bindTenant(ctx, keyTenant);
  return keyTenant;
}

/** Whether the request carries either credential header at all. */
export function hasCredentialHeaders(ctx: TenantContext): boolean {
  const [idName, secretName] = ctx.ref.config.partnerHeaderKeys;
  return ctx.req.headers[idName] !== undefined || ctx.req.headers[secretName] !== undefined;
}

function readCredentials(ctx: TenantContext): Credentials | undefined {
  const { faults, config } = ctx.ref;
  if (faults.has('partner-header-any-name')) return scanAllHeaders(ctx.ref, ctx.req);
  const [clientId, secret] = faults.has('partner-header-names-case-sensitive')
    ? [exactCaseHeader(ctx.req, config.partnerHeaders[0]), exactCaseHeader(ctx.req, config.partnerHeaders[1])]
    : [header(ctx.req, config.partnerHeaderKeys[0]), header(ctx.req, config.partnerHeaderKeys[1])];
  if (clientId === undefined || secret === undefined) return undefined;
  return { clientId, secret };
}

function header(req: IncomingMessage, lowerName: string): string | undefined {
  const value = req.headers[lowerName];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Fault `partner-header-names-case-sensitive`: only the exact configured spelling counts. */
function exactCaseHeader(req: IncomingMessage, name: string): string | undefined {
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i] === name && raw[i + 1] !== '') return raw[i + 1];
  return undefined;
}

/** Fault `partner-header-any-name`: any header whose value is a client id, any whose value is its secret. */
function scanAllHeaders(ref: Reference, req: IncomingMessage): Credentials | undefined {
  const values = req.rawHeaders.filter((_, i) => i % 2 === 1);
  for (const value of values) {
    const tenant = ref.directory.tenantByClientId(value);
    if (tenant === undefined) continue;
    const secret = values.find((candidate) => safeEqual(candidate, tenant.partner.secret));
    return { clientId: value, secret: secret ?? '' };
  }
  return undefined;
}

/** Placeholder compared against when the client id is unknown, so both paths cost the same. */
const NO_SECRET = 'no-such-client-no-such-secret';

function findKey(ref: Reference, credentials: Credentials): Tenant | undefined {
  const tenant = ref.directory.tenantByClientId(credentials.clientId);
  const matches = secretMatches(ref, credentials.secret, tenant?.partner.secret ?? NO_SECRET);
  return tenant !== undefined && matches ? tenant : undefined;
}

function secretMatches(ref: Reference, given: string, expected: string): boolean {
  if (ref.faults.has('partner-secret-ignored')) return true;
  if (ref.faults.has('partner-secret-prefix-match')) {
    return given !== '' && (expected.startsWith(given) || given.startsWith(expected));
  }
  return safeEqual(given, expected);
}

function bindTenant(ctx: TenantContext, keyTenant: Tenant): void {
  if (keyTenant === ctx.tenant || ctx.ref.faults.has('partner-other-tenant-key-accepted')) return;
  throw refusal(ctx, 'invalid_credentials', 'The partner credentials do not belong to the tenant of this host.');
}

function refusal(ctx: TenantContext, code: string, detail: string) {
  return unauthorized(code, detail, `Tenant-Key realm="${ctx.tenant.name}"`);
}
