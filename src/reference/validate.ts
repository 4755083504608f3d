/**
 * Field checks shared by the partner API and the test hook. Each throws a 400 HttpError naming the
 * field and what is wrong with it, never echoing the value.
 *
 * Choices (the spec shows no formats except timeZone): strings must be non-blank, without control
 * characters or unpaired surrogates; e-mail at most 254 characters with exactly one `@` and no
 * white space; names at most 200 characters; phone numbers at most 64 characters, any notation.
 */
import { badRequest } from './errors.js';
import type { JsonObject } from './body.js';

const CONTROL = /[\u0000-\u001f\u007f]|\p{Cs}/u;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,253}$/u;
/** Area/Location[/Sub] names and single names like UTC; rules out offsets such as +01:00. */
const TIME_ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

export function missing(field: string): never {
  throw badRequest('missing_field', `${field} is required.`);
}

function invalid(field: string, why: string): never {
  throw badRequest('invalid_field', `${field} ${why}.`);
}

/** A required, non-blank string of at most `max` characters. */
export function requiredString(body: JsonObject, field: string, max = 200): string {
  const value = body[field];
  if (value === undefined || value === null) missing(field);
  return checkString(field, value, max);
}

/** An optional string: absent or null means not given. */
export function optionalString(body: JsonObject, field: string, max = 200): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  return checkString(field, value, max);
}

function checkString(field: string, value: unknown, max: number): string {
  if (typeof value !== 'string') invalid(field, 'must be a string');
  if (value.trim() === '') invalid(field, 'must not be blank');
  if (value.length > max) invalid(field, `must be at most ${max} characters`);
  if (CONTROL.test(value)) invalid(field, 'must not contain control characters');
  return value;
}

export function requiredEmail(body: JsonObject, field = 'email'): string {
  const value = requiredString(body, field, 254);
  if (!isEmail(value)) invalid(field, 'must be an e-mail address');
  return value;
}

function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value) && !CONTROL.test(value);
}

/** Whether `name` is an IANA time zone name this runtime knows (`Europe/Berlin`, `UTC`). */
export function isTimeZone(name: string): boolean {
  if (name.length > 64 || !TIME_ZONE_NAME.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export function requiredBoolean(body: JsonObject, field: string): boolean {
  const value = body[field];
  if (value === undefined || value === null) missing(field);
  if (typeof value !== 'boolean') invalid(field, 'must be true or false');
  return value;
}

export function requiredChoice<const T extends string>(body: JsonObject, field: string, choices: readonly T[]): T {
  const value = body[field];
  if (value === undefined || value === null) missing(field);
  const found = choices.find((choice) => choice === value);
  if (found === undefined) invalid(field, `must be one of ${choices.map((c) => `"${c}"`).join(', ')}`);
  return found;
}
