/**
 * Writing responses. Every response of the reference server goes out through these few functions,
 * which set Content-Type and Content-Length in one writeHead call (cheap on the hot path) and never
 * write to a request whose client has gone.
 */
import type { ServerResponse } from 'node:http';

type Headers = Readonly<Record<string, string>>;

/** No-store headers for any response that carries a token (RFC 6749 §5.1). */
export const NO_STORE: Headers = { 'cache-control': 'no-store', pragma: 'no-cache' };

function gone(res: ServerResponse): boolean {
  return res.writableEnded || res.destroyed;
}

export function sendBody(res: ServerResponse, status: number, contentType: string, body: string, headers?: Headers): void {
  if (gone(res)) return;
  const length = Buffer.byteLength(body);
  if (headers === NO_STORE) {
    // The token responses (the hot path): one literal, no spread.
    res.writeHead(status, { 'cache-control': 'no-store', pragma: 'no-cache', 'content-type': contentType, 'content-length': length });
  } else {
    res.writeHead(
      status,
      headers === undefined ? { 'content-type': contentType, 'content-length': length } : { ...headers, 'content-type': contentType, 'content-length': length },
    );
  }
  res.end(body);
}

export function sendJson(res: ServerResponse, status: number, value: unknown, headers?: Headers): void {
  sendBody(res, status, 'application/json', JSON.stringify(value), headers);
}

/** A response with no body at all (204, or the 200 of RFC 7009 revocation). */
export function sendEmpty(res: ServerResponse, status: number, headers?: Headers): void {
  if (gone(res)) return;
  res.writeHead(status, { ...headers, 'content-length': '0' });
  res.end();
}
