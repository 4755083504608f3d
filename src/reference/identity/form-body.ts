/**
 * The sign-in server's request bodies: `application/x-www-form-urlencoded` only (RFC 6749 §3.2),
 * parsed with URLSearchParams. A parameter given twice is refused (RFC 6749 §3.1), as is a body of
 * another media type (400 invalid_request: the protocol's own error, not a 415).
 */
import { mediaType, readBody } from '../body.js';
import type { RequestContext } from '../context.js';
import { badRequest } from '../errors.js';

export type Form = ReadonlyMap<string, string>;

const FORM = 'application/x-www-form-urlencoded';

export async function readForm(ctx: RequestContext): Promise<Form> {
  if (mediaType(ctx.req) !== FORM) {
    throw badRequest('invalid_request', `The request body must be ${FORM}.`);
  }
  const text = await readBody(ctx.req);
  const form = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(text)) {
    if (form.has(name)) throw badRequest('invalid_request', `The parameter ${safeName(name)} is given more than once.`);
    form.set(name, value);
  }
  return form;
}

/** A required parameter; absent or empty is invalid_request. */
export function param(form: Form, name: string): string {
  const value = form.get(name);
  if (value === undefined || value === '') throw badRequest('invalid_request', `The parameter ${name} is required.`);
  return value;
}

/** The public client must be the configured one; no secret is asked for (spec §4.2). */
export function checkClient(ctx: RequestContext, form: Form): void {
  const clientId = form.get('client_id');
  if (clientId === undefined || clientId === '') throw badRequest('invalid_request', 'The parameter client_id is required.');
  if (clientId !== ctx.ref.config.clientId) throw badRequest('invalid_client', 'The client is not known to this realm.');
}

/** Parameter names are echoed only when short and plain, so a message can never carry input. */
function safeName(name: string): string {
  return /^[a-z_]{1,32}$/.test(name) ? name : 'parameter';
}
