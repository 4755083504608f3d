/**
 * POST /api/admin/users: creates a user of the host's tenant (spec §2, §4.1).
 *
 * Steps: requirePartnerKey, readJsonObject, readProfile (required email, firstName, lastName;
 * optional displayName, phoneNumber, timeZone; unknown fields ignored; null counts as absent),
 * refuseDuplicate (409 when the address is already a member of this tenant), addUser, answer
 * `201 {"id","email","firstName","lastName",...optional fields}`.
 *
 * Users are global: an address that already belongs to another tenant becomes a member of this one
 * too (201, its stored profile unchanged), exactly as the test hook does. Partner-created users sign
 * in directly (the reset-password link is how they get a password), so they may generate API tokens.
 */
import { randomUUID } from 'node:crypto';
import type { JsonObject } from '../body.js';
import type { TenantContext } from '../context.js';
import type { User, UserProfile } from '../directory.js';
import { badRequest, conflict } from '../errors.js';
import { sendJson } from '../respond.js';
import { isTimeZone, optionalString, requiredEmail, requiredString } from '../validate.js';
import { requirePartnerKey } from './credentials.js';
import { readPartnerJson } from './json-body.js';

const OPTIONAL_FIELDS = ['displayName', 'phoneNumber', 'timeZone'] as const;

// PARTNER-CREATE-USER: a new user is created with 201 Created.
export async function createUser(ctx: TenantContext): Promise<void> {
  requirePartnerKey(ctx, 'create-user');
  const body = await readPartnerJson(ctx);
  const profile = ctx.ref.faults.has('create-user-fields-unchecked') ? lenientProfile(body) : readProfile(ctx, body);
  const existing = refuseDuplicate(ctx, profile.email);
  const user = existing ?? addUser(ctx, profile);
  answer(ctx, user);
}

// PARTNER-BAD-REQUEST, PARTNER-CREATE-OPTIONAL, PARTNER-TIMEZONE: required fields checked, optional ones accepted, timeZone an IANA name.
function readProfile(ctx: TenantContext, body: JsonObject): UserProfile {
  if (ctx.ref.faults.has('create-user-rejects-optional-fields')) {
    const given = OPTIONAL_FIELDS.find((field) => body[field] !== undefined);
    if (given !== undefined) throw badRequest('invalid_field', `${given} is not accepted.`);
  }
  const email = requiredEmail(body);
  const firstName = requiredString(body, 'firstName');
  const lastName = requiredString(body, 'lastName');
  const displayName = optional(ctx, body, 'displayName', 200);
  const phoneNumber = optional(ctx, body, 'phoneNumber', 64);
  const timeZone = optional(ctx, body, 'timeZone', 64);
  if (timeZone !== undefined && !knownZone(ctx, timeZone) && !ctx.ref.faults.has('timezone-not-validated')) {
    throw badRequest('invalid_time_zone', 'timeZone must be an IANA time zone name such as Europe/Berlin.');
  }
  return { email, firstName, lastName, ...defined({ displayName, phoneNumber, timeZone }) };
}

/** An optional string member; fault `optional-field-types-unchecked`: one of another type is dropped, not refused. */
function optional(ctx: TenantContext, body: JsonObject, field: string, max: number): string | undefined {
  const value = body[field];
  if (ctx.ref.faults.has('optional-field-types-unchecked') && value !== undefined && typeof value !== 'string') return undefined;
  return optionalString(body, field, max);
}

/** An IANA name, links included; fault `timezone-runtime-list-only`: only the names of Node's own list (no Asia/Kolkata, UTC). */
function knownZone(ctx: TenantContext, zone: string): boolean {
  if (ctx.ref.faults.has('timezone-runtime-list-only')) return Intl.supportedValuesOf('timeZone').includes(zone);
  return isTimeZone(zone);
}

/** Fault `create-user-fields-unchecked`: anything goes, blanks are filled in. */
function lenientProfile(body: JsonObject): UserProfile {
  const text = (value: unknown, fallback: string): string => (typeof value === 'string' && value !== '' ? value : fallback);
  return {
    email: text(body['email'], `unnamed-${randomUUID()}@example.invalid`),
    firstName: text(body['firstName'], '-'),
    lastName: text(body['lastName'], '-'),
  };
}

/** 409 when already a member; an existing user of another tenant is returned to be added here. */
// PARTNER-CREATE-DUPLICATE: an address already a member of this tenant is refused with 409.
function refuseDuplicate(ctx: TenantContext, email: string): User | undefined {
  const user = ctx.ref.directory.userByEmail(email);
  if (user === undefined) return undefined;
  if (ctx.tenant.members.has(user.id) && !ctx.ref.faults.has('duplicate-user-accepted')) {
    throw conflict('user_exists', 'A user with this e-mail address already exists in this tenant.');
  }
  ctx.ref.directory.addMember(ctx.tenant, user);
  return user;
}

function addUser(ctx: TenantContext, profile: UserProfile): User {
  const user = ctx.ref.directory.createUser(profile, 'direct');
  ctx.ref.directory.addMember(ctx.tenant, user);
  return user;
}

function answer(ctx: TenantContext, user: User): void {
  const status = ctx.ref.faults.has('create-user-returns-200') ? 200 : 201;
  const { id, email, firstName, lastName, displayName, phoneNumber, timeZone } = user;
  sendJson(ctx.res, status, { id, email, firstName, lastName, ...defined({ displayName, phoneNumber, timeZone }) });
}

function defined<T extends Record<string, string | undefined>>(fields: T): Partial<Record<keyof T, string>> {
  const out: Partial<Record<keyof T, string>> = {};
  for (const key of Object.keys(fields) as (keyof T)[]) {
    const value = fields[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
