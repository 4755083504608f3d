/**
 * POST {identity}/protocol/openid-connect/token: exchange a personal API token (grant_type
 * refresh_token, public client, no secret) for a 300-second access token and a replacement API
 * token. This is the hot path of every load test: one body read, one URLSearchParams, one Map
 * lookup and delete for the old token, pooled random bytes and one MAC for the new one, one
 * signature for the access token; nothing is stored per exchange.
 *
 * Steps: readForm, checkClient, grant_type (`authorization_code` goes to code-grant.ts, the sign-in
 * pages' codes; anything but `refresh_token` is unsupported_grant_type), param refresh_token,
 * storeRound (the store's delay, store-delay.ts), loadActiveUser, rotateToken, answer. Every
 * refusal of the token itself is 400 invalid_grant: never issued, rotated out, revoked and expired
 * share one wording (a caller cannot tell a revoked token from a rotated-out one); a
 * disabled user's token says so.
 */
import { ACCESS_TOKEN_SECONDS } from '../access-token.js';
import type { Reference, RequestContext } from '../context.js';
import type { User } from '../directory.js';
import type { RotateOptions } from '../token-store.js';
import { badRequest, HttpError } from '../errors.js';
import { NO_STORE, sendJson } from '../respond.js';
import { allowAnyOrigin } from './cors.js';
import { exchangeCode } from './code-grant.js';
import { checkClient, type Form, param, readForm } from './form-body.js';
import { lockToken, storeRound } from '../store-delay.js';

// SIGNIN-EXCHANGE: 200 with access_token, expires_in 300, token_type Bearer, refresh_token (see answer).
export async function exchange(ctx: RequestContext): Promise<void> {
  const form = await readForm(ctx);
  // SIGNIN-CLIENT-ID: the public client must be the configured one.
  if (!ctx.ref.faults.has('exchange-ignores-client-id')) refuseOtherClients(ctx, form);
  const grantType = grantTypeOf(ctx, form);
  if (grantType !== 'refresh_token') return otherGrant(ctx, form, grantType);
  const token = param(form, 'refresh_token');
  if (rotatesAroundTheWait(ctx.ref)) return readWaitWrite(ctx, token);
  // SIGNIN-ROTATION-ATOMIC: the store answers after its delay; the read and the rotation then happen in one step.
  if (ctx.ref.storeDelayMs > 0) await storeRound(ctx.ref);
  const user = loadActiveUser(ctx, token);
  if (user === undefined) return answerUnissued(ctx);
  const presented = ctx.ref.faults.has('rotation-unsafe-under-concurrency') ? await throughSharedSlot(ctx.ref, token) : token;
  answer(ctx, user.id, rotateToken(ctx.ref, presented));
}

function rotatesAroundTheWait({ faults }: Reference): boolean {
  return (
    faults.has('rotation-forks-under-overlap') ||
    faults.has('reuse-detection-bypassed-by-overlap') ||
    faults.has('rotation-locked-per-token') ||
    faults.has('rotation-forks-rotated-tokens-only') ||
    faults.has('rotation-forks-two-overlapping-only') ||
    faults.has('rotation-coalesces-keeps-presented')
  );
}

/** Exchanges of each token in flight (and the most at once), and the token coalesced overlap answers with: for the narrow race faults. */
interface Overlap {
  now: number;
  peak: number;
  coalesced?: string;
}
const overlaps = new WeakMap<Reference, Map<string, Overlap>>();
/** Tokens issued by rotation (fault `rotation-forks-rotated-tokens-only`). */
const issuedByRotation = new WeakMap<Reference, Set<string>>();

function rememberRotated(ref: Reference, token: string): void {
  if (!ref.faults.has('rotation-forks-rotated-tokens-only')) return;
  const tokens = issuedByRotation.get(ref) ?? new Set<string>();
  issuedByRotation.set(ref, tokens);
  tokens.add(token);
}

function enter(ref: Reference, token: string): Overlap {
  const byToken = overlaps.get(ref) ?? new Map<string, Overlap>();
  overlaps.set(ref, byToken);
  const overlap = byToken.get(token) ?? { now: 0, peak: 0 };
  overlap.now++;
  overlap.peak = Math.max(overlap.peak, overlap.now);
  byToken.set(token, overlap);
  return overlap;
}

function leave(ref: Reference, token: string, overlap: Overlap): void {
  if (--overlap.now === 0) overlaps.get(ref)?.delete(token);
}

/**
 * Whether this exchange, after the wait, rotates in one step as a conformant server does: the
 * narrow race faults fork only some overlaps (`rotation-forks-rotated-tokens-only`: tokens issued
 * by rotation; `rotation-forks-two-overlapping-only`: exactly two at once; `rotation-coalesces-keeps-presented`:
 * none, it coalesces).
 */
function atomicAfterWait(ref: Reference, rotatedToken: boolean, overlap: Overlap): boolean {
  if (ref.faults.has('rotation-forks-rotated-tokens-only')) return !rotatedToken;
  if (ref.faults.has('rotation-forks-two-overlapping-only')) return overlap.peak !== 2;
  if (ref.faults.has('rotation-coalesces-keeps-presented')) return overlap.peak < 2;
  return false;
}

/**
 * Faults `rotation-forks-under-overlap` and `reuse-detection-bypassed-by-overlap`: the token is read
 * (live? rotated out?), the store's delay passes, and the rotation is written as the read saw the
 * chain: exchanges of one token that overlap all pass the read, and each write adds a live token
 * (token-store.ts `rotateAsRead`). Variant `rotation-locked-per-token`: the same, one exchange of a
 * token at a time.
 */
async function readWaitWrite(ctx: RequestContext, token: string): Promise<void> {
  const { ref } = ctx;
  const release = ref.faults.has('rotation-locked-per-token') ? await lockToken(ref, token) : undefined;
  try {
    const user = loadActiveUser(ctx, token);
    if (user === undefined) return answerUnissued(ctx);
    const grant = ref.apiTokens.find(token);
    if (grant === undefined) throw invalidGrant();
    const seen = { current: grant.current, previous: grant.previous };
    const rotatedToken = issuedByRotation.get(ref)?.has(token) === true;
    const overlap = enter(ref, token);
    try {
      await storeRound(ref);
      if (atomicAfterWait(ref, rotatedToken, overlap)) {
        const again = loadActiveUser(ctx, token);
        if (again === undefined) return answerUnissued(ctx);
        const rotated = rotateToken(ref, token);
        rememberRotated(ref, rotated);
        return answer(ctx, again.id, rotated);
      }
      if (ref.faults.has('rotation-coalesces-keeps-presented')) {
        // Every overlapping exchange gets one new token, written beside the chain: the presented token stays live.
        overlap.coalesced ??= ref.apiTokens.rotateAsRead(token, grant, { current: '', previous: undefined }, rotateOptions(ref));
        if (overlap.coalesced === undefined) throw invalidGrant();
        return answer(ctx, user.id, overlap.coalesced);
      }
      const next = ref.apiTokens.rotateAsRead(token, grant, seen, rotateOptions(ref));
      if (next === undefined) throw invalidGrant();
      rememberRotated(ref, next);
      answer(ctx, user.id, next);
    } finally {
      leave(ref, token, overlap);
    }
  } finally {
    release?.();
  }
}

/** Variant `exchange-foreign-client-revokes`: a token presented under another client id is revoked as it is refused. */
function refuseOtherClients(ctx: RequestContext, form: Form): void {
  try {
    checkClient(ctx, form);
  } catch (error) {
    const presented = form.get('refresh_token');
    if (presented !== undefined && ctx.ref.faults.has('exchange-foreign-client-revokes')) ctx.ref.apiTokens.revoke(presented);
    throw error;
  }
}

/** The grant type; fault `exchange-grant-type-500`: a missing one fails the server. */
// SIGNIN-NO-SERVER-ERROR: a missing grant_type is 400 invalid_request, an unknown one 400 unsupported_grant_type.
function grantTypeOf(ctx: RequestContext, form: Form): string {
  if (!form.get('grant_type') && ctx.ref.faults.has('exchange-grant-type-500')) throw new HttpError(500, 'server_error', 'No grant type.');
  return param(form, 'grant_type');
}

/** Off the hot path: the sign-in pages' authorization codes, or a grant this server does not know. */
function otherGrant(ctx: RequestContext, form: Form, grantType: string): void {
  if (grantType === 'authorization_code') return exchangeCode(ctx, form);
  if (ctx.ref.faults.has('exchange-grant-type-500')) throw new HttpError(500, 'server_error', 'Unknown grant type.');
  throw badRequest('unsupported_grant_type', 'Only grant_type refresh_token and authorization_code are supported.');
}

export function invalidGrant(): HttpError {
  return badRequest('invalid_grant', 'The token is expired, revoked or not valid; generate a new API token.');
}

/** A token that is not of this server's shape, or whose tag does not verify, was never issued here. */
// SIGNIN-GARBAGE-REJECTED, SIGNIN-GARBAGE-INVALID-GRANT: a token never issued here is refused with 400 invalid_grant.
function answerUnissued(ctx: RequestContext): void {
  const { ref } = ctx;
  if (ref.faults.has('garbage-token-exchanges')) {
    const home = ref.directory.user(ref.fallbackUserId)?.tenants.values().next().value ?? '';
    const fresh = ref.apiTokens.issue({ userId: ref.fallbackUserId, tenant: home, clientId: null });
    return answer(ctx, ref.fallbackUserId, fresh);
  }
  if (ref.faults.has('garbage-token-unauthorized')) {
    throw new HttpError(401, 'invalid_token', 'The token is not valid.');
  }
  throw invalidGrant();
}

/**
 * The grant must be live and its user neither gone nor disabled. Undefined means the token was
 * never issued here; a token that was issued but is no longer live is invalid_grant.
 */
// SIGNIN-DISABLED-USER: a disabled user's token is refused with invalid_grant.
function loadActiveUser(ctx: RequestContext, token: string): User | undefined {
  const { ref } = ctx;
  const grant = ref.apiTokens.find(token);
  if (grant === undefined) {
    if (!ref.apiTokens.recognises(token)) return undefined;
    // SIGNIN-ROTATION-ATOMIC: under reuse detection, the token rotated out last ends its chain.
    ref.apiTokens.presentedAgain(token);
    throw invalidGrant();
  }
  const user = ref.directory.user(grant.userId);
  if (user === undefined) throw invalidGrant();
  if (user.disabled && !ref.faults.has('disabled-user-exchanges')) {
    throw badRequest('invalid_grant', 'The user of this token is disabled.');
  }
  return user;
}

/** Deletes the presented token and returns its replacement (same chain, same 90-day limit). */
// SIGNIN-ROTATION, SIGNIN-IDLE-RESET, SIGNIN-ABSOLUTE-EXPIRY: a new token replaces the presented one; the 30 days restart; the 90 days do not.
function rotateToken(ref: Reference, presented: string): string {
  const { faults } = ref;
  if (faults.has('rotation-same-token')) {
    ref.apiTokens.touch(presented);
    return presented;
  }
  const next = ref.apiTokens.rotate(presented, rotateOptions(ref));
  if (next === undefined) throw invalidGrant();
  return next;
}

function rotateOptions({ faults }: Reference): RotateOptions {
  return { touch: !faults.has('idle-limit-not-reset'), restartAbsolute: faults.has('absolute-limit-sliding') };
}

/**
 * Fault `rotation-unsafe-under-concurrency`: the token waits a tick in one slot shared by all
 * requests. Alone, it comes back unchanged; with concurrent exchanges, the last writer wins, so one
 * request rotates another chain's token and that chain's own request then finds it gone.
 */
async function throughSharedSlot(ref: Reference, token: string): Promise<string> {
  ref.racySlot = token;
  await new Promise<void>((resolve) => setImmediate(resolve));
  return ref.racySlot ?? token;
}

// SIGNIN-NO-STORE: token answers carry Cache-Control: no-store.
function answer(ctx: RequestContext, userId: string, refreshToken: string): void {
  const { faults, accessTokens } = ctx.ref;
  const lifetime = faults.has('access-token-lives-an-hour')
    ? 3600
    : faults.has('access-token-lives-200-seconds')
      ? 200
      : faults.has('access-token-lives-320-seconds')
        ? 320
        : ACCESS_TOKEN_SECONDS;
  const body: Record<string, unknown> = {
    access_token: accessTokens.issue('signin', userId, null, lifetime),
    expires_in: faults.has('exchange-expires-in-string') ? String(ACCESS_TOKEN_SECONDS) : ACCESS_TOKEN_SECONDS,
    token_type: faults.has('exchange-token-type-wrong') ? 'JWT' : 'Bearer',
  };
  if (!faults.has('exchange-omits-refresh-token')) body['refresh_token'] = refreshToken;
  if (faults.has('cors-on-success-only')) allowAnyOrigin(ctx);
  sendJson(ctx.res, 200, body, faults.has('no-cache-control') ? undefined : NO_STORE);
}
