/**
 * POST /tenants/{tenant}/users `{"email","firstName","lastName","signIn":"direct"|"embedded"[,"password"]}`:
 * 201 `{"email"}`. An address that exists in another tenant becomes a member of this one too (its
 * stored profile and sign-in kind are kept, and so is its password if it has one); 409 when already
 * a member; 404 unknown tenant. The optional `password` (capability `passwords`: 1 to 1024
 * characters, not blank, no control characters) is stored hashed before the 201, so the user can
 * sign in at once.
 *
 * POST /users/{email}/disable `{}`: 204; 404 unknown user. Disabling is global (all tenants) and
 * final for the reference server: its API tokens stop exchanging (invalid_grant), its access
 * tokens stop working (401), partner tokens for it are no longer minted or refreshed.
 */
import { readJsonObject } from '../body.js';
import type { RequestContext } from '../context.js';
import { conflict } from '../errors.js';
import { sendEmpty, sendJson } from '../respond.js';
import { MAX_PASSWORD_LENGTH } from '../passwords.js';
import { optionalString, requiredChoice, requiredEmail, requiredString } from '../validate.js';
import { tenantParam, userParam } from './lookup.js';

export async function createHookUser(ctx: RequestContext): Promise<void> {
  const tenant = tenantParam(ctx);
  const body = await readJsonObject(ctx.req);
  const email = requiredEmail(body);
  const firstName = requiredString(body, 'firstName');
  const lastName = requiredString(body, 'lastName');
  const signIn = requiredChoice(body, 'signIn', ['direct', 'embedded']);
  const password = optionalString(body, 'password', MAX_PASSWORD_LENGTH);
  const { directory, passwords } = ctx.ref;
  const existing = directory.userByEmail(email);
  if (existing !== undefined && tenant.members.has(existing.id)) {
    throw conflict('already_member', 'This user is already a member of this tenant.');
  }
  const user = existing ?? directory.createUser({ email, firstName, lastName }, signIn);
  directory.addMember(tenant, user);
  if (password !== undefined && !passwords.has(user.id)) await passwords.set(user.id, password);
  sendJson(ctx.res, 201, { email: user.email });
}

export async function disableUser(ctx: RequestContext): Promise<void> {
  const user = userParam(ctx.ref, ctx.params['email']);
  await readJsonObject(ctx.req, { allowEmpty: true });
  user.disabled = true;
  sendEmpty(ctx.res, 204);
}
