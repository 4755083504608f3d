/**
 * POST /api/admin/users/{email}/reset-password: answers
 * `200 {"actionUrl":"http://acme.localhost:PORT/account/reset-password?token=...","expiresAt":ISO}`.
 *
 * The URL is built from the server's own configured tenant address, never from the request's Host
 * header (a reset link must not be steerable by the caller). Its token is a signed, self-contained
 * value (user, expiry in 24 h), so nothing is stored per reset. Any request body is read (within the
 * limit) and ignored. A user who is not a member of the host's tenant: 404 user_not_found.
 */
import { readBody } from '../body.js';
import { DAY } from '../clock.js';
import { type TenantContext, tenantUrl } from '../context.js';
import type { User } from '../directory.js';
import { notFound, unauthorized } from '../errors.js';
import { sendJson } from '../respond.js';
import { requirePartnerKey } from './credentials.js';

const RESET_LIFETIME_MS = DAY;

export async function resetPassword(ctx: TenantContext): Promise<void> {
  requirePartnerKey(ctx, 'reset-password');
  await readBody(ctx.req);
  const subject = findMember(ctx);
  const expiresAt = ctx.ref.clock.now() + RESET_LIFETIME_MS;
  const body: Record<string, unknown> = { actionUrl: actionUrl(ctx, subject, expiresAt), expiresAt: new Date(expiresAt).toISOString() };
  if (ctx.ref.faults.has('reset-url-self-link-only')) {
    const self = `${tenantUrl(ctx.ref, ctx.tenant.name)}${(ctx.req.url ?? '').split('?')[0]}`;
    sendJson(ctx.res, 200, { expiresAt: body['expiresAt'], _links: { self: { href: self } } });
    return;
  }
  const userResource = `${tenantUrl(ctx.ref, ctx.tenant.name)}/api/admin/users/${encodeURIComponent(ctx.params['email'] ?? '')}`;
  const ownAddress = `${tenantUrl(ctx.ref, ctx.tenant.name)}${(ctx.req.url ?? '').split('?')[0]}`;
  if (ctx.ref.faults.has('reset-url-user-link-only')) return sendJson(ctx.res, 200, { user: userResource });
  if (ctx.ref.faults.has('reset-url-hal-user-link-only'))
    return sendJson(ctx.res, 200, { _links: { self: { href: ownAddress }, user: { href: userResource } } });
  if (ctx.ref.faults.has('reset-url-help-link-only')) return sendJson(ctx.res, 200, { status: 'queued', help: 'https://docs.example.com/password-reset' });
  if (ctx.ref.faults.has('reset-url-schema-link-only'))
    return sendJson(ctx.res, 200, { $schema: 'https://schemas.example.com/reset.json', message: 'reset e-mail sent' });
  if (ctx.ref.faults.has('reset-url-hal-reset-link')) {
    const links = { self: { href: ownAddress }, user: { href: userResource }, reset: { href: body['actionUrl'] } };
    return sendJson(ctx.res, 200, { expiresAt: body['expiresAt'], _links: links });
  }
  if (ctx.ref.faults.has('reset-url-relative-beside-link')) body['help'] = 'https://docs.example.com/payroll/reset-password';
  sendJson(ctx.res, 200, body);
}

/** The member's id; fault `reset-url-for-non-members`: any address stands for itself. */
// PARTNER-RESET-TENANT-SCOPE: only a user of this tenant gets an action URL.
function findMember(ctx: TenantContext): string {
  const email = ctx.params['email'] ?? '';
  const user: User | undefined = ctx.ref.directory.member(ctx.tenant, email);
  if (user !== undefined) return user.id;
  if (ctx.ref.faults.has('reset-url-for-non-members')) return `unknown-${ctx.ref.mac.tag(email).slice(0, 12)}`;
  if (ctx.ref.faults.has('lenient-json-unknown-user-401')) throw unauthorized('user_not_found', 'No user with this e-mail address belongs to this tenant.');
  throw notFound('user_not_found', 'No user with this e-mail address belongs to this tenant.');
}

function actionUrl(ctx: TenantContext, subject: string, expiresAt: number): string {
  const payload = `rp1.${subject}.${expiresAt.toString(36)}`;
  const path = `/account/reset-password?token=${payload}.${ctx.ref.mac.tag(payload)}`;
  // PARTNER-RESET-PASSWORD: an absolute action URL, built from the tenant's own address.
  const relative = ctx.ref.faults.has('reset-url-relative') || ctx.ref.faults.has('reset-url-relative-beside-link');
  return relative ? path : tenantUrl(ctx.ref, ctx.tenant.name) + path;
}
