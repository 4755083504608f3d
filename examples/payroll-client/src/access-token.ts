/**
 * An access token and when to stop using it: a minute before the server says it expires, so that a
 * call never goes out with a token about to lapse (the spec: renew near expiry, or on a 401).
 */

const MARGIN_MS = 60_000;

export interface AccessToken {
  readonly value: string;
  readonly usableUntil: number;
}

export function accessToken(value: string, expiresInSeconds: unknown, now = Date.now()): AccessToken {
  const seconds = typeof expiresInSeconds === 'number' && expiresInSeconds > 0 ? expiresInSeconds : 300;
  return { value, usableUntil: now + Math.max(0, seconds * 1000 - MARGIN_MS) };
}

export function usable(token: AccessToken | undefined, now = Date.now()): token is AccessToken {
  return token !== undefined && now < token.usableUntil;
}

/** What gets an access token: a personal API token's exchange, or the partner key. */
export interface TokenSource {
  /** A usable access token: the one held while it is valid, a new one otherwise. */
  current(): Promise<string>;
  /** A new access token, whatever the one held (after the API answered 401). */
  renew(): Promise<string>;
}
