/**
 * Cookies of the web pages: reading the Cookie header and writing Set-Cookie. Every cookie the
 * server sets is HttpOnly and SameSite=Lax (sent on the top-level redirects between the tenant
 * host and the sign-in server, never on cross-site subrequests); values are signed (`signed.ts`).
 * No `Secure` attribute: the reference server speaks plain HTTP on loopback.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The value of cookie `name`, the first one when it is sent twice; undefined when absent. */
export function readCookie(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (header === undefined || header.length > 8192) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    return value.startsWith('"') && value.endsWith('"') && value.length >= 2 ? value.slice(1, -1) : value;
  }
  return undefined;
}

/** Queues a Set-Cookie header (several may be queued); `maxAgeSeconds` 0 deletes the cookie. */
export function setCookie(res: ServerResponse, name: string, value: string, options: { path: string; maxAgeSeconds?: number }): void {
  const parts = [`${name}=${value}`, `Path=${options.path}`, 'HttpOnly', 'SameSite=Lax'];
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${options.maxAgeSeconds}`);
  const previous = res.getHeader('set-cookie');
  const list = Array.isArray(previous) ? previous : typeof previous === 'string' ? [previous] : [];
  res.setHeader('set-cookie', [...list, parts.join('; ')]);
}

export function clearCookie(res: ServerResponse, name: string, path: string): void {
  setCookie(res, name, '', { path, maxAgeSeconds: 0 });
}
