/**
 * The JSON body of a partner-key call (spec §4.1: "Bodies are JSON with Content-Type
 * application/json"), read after the key was checked: another media type is 415, a body that is
 * not a JSON object 400 (body.ts). Never 401: the credentials were right, the body is what is wrong.
 */
import { isJsonMediaType, type JsonObject, mediaType, readJsonObject } from '../body.js';
import type { TenantContext } from '../context.js';
import { unauthorized } from '../errors.js';

// PARTNER-NO-SERVER-ERROR: a body problem is a 4xx of its own (415, 400), not the credentials status 401.
export function readPartnerJson(ctx: TenantContext): Promise<JsonObject> {
  if (ctx.ref.faults.has('partner-content-type-401') && !isJsonMediaType(mediaType(ctx.req))) {
    return Promise.reject(unauthorized('invalid_credentials', 'The credentials are missing or wrong.'));
  }
  // Variant lenient-json-unknown-user-401: a JSON body is read whatever its media type.
  return readJsonObject(ctx.req, { anyMediaType: ctx.ref.faults.has('lenient-json-unknown-user-401') });
}
