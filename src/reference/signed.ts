/**
 * Signed, self-contained values: the sign-in form's pending request, and the session and login
 * cookies of both hosts. `kind.<base64url JSON>.<HMAC tag>`, with an expiry inside, judged by the
 * server's clock. Like access tokens, nothing is stored per value, so memory does not grow with
 * sign-ins; the kind is part of what is signed, so one kind of value never passes for another.
 *
 * `open` never throws: anything malformed, forged, of another kind or expired is `undefined`.
 */
import type { Clock } from './clock.js';
import type { MacKey } from './secrets.js';

/** Longest signed value `open` looks at (cookies and form fields are bounded by the body limit anyway). */
const MAX_LENGTH = 4096;

type SignedKind = 'authreq' | 'idsess' | 'websess' | 'weblogin';

export function seal(mac: MacKey, clock: Clock, kind: SignedKind, payload: Record<string, unknown>, lifetimeMs: number): string {
  const body = `${kind}.${Buffer.from(JSON.stringify({ ...payload, exp: clock.now() + lifetimeMs }), 'utf8').toString('base64url')}`;
  return `${body}.${mac.tag(body)}`;
}

export function open(mac: MacKey, clock: Clock, kind: SignedKind, text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined || text.length > MAX_LENGTH || !text.startsWith(`${kind}.`)) return undefined;
  const dot = text.lastIndexOf('.');
  if (dot <= kind.length) return undefined;
  const body = text.slice(0, dot);
  if (!mac.verify(body, text.slice(dot + 1))) return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(body.slice(kind.length + 1), 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return undefined;
  const record = payload as Record<string, unknown>;
  if (typeof record['exp'] !== 'number' || clock.now() >= record['exp']) return undefined;
  return record;
}

/** A string member of an opened payload, or undefined. */
export function text(payload: Record<string, unknown>, name: string): string | undefined {
  const value = payload[name];
  return typeof value === 'string' ? value : undefined;
}
