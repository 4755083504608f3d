/**
 * Server-rendered HTML for the web pages of both hosts (the tenant host's account pages, the
 * sign-in server's forms): one escaper, one layout, one way to send a page or a redirect.
 *
 * Every page goes out with `Cache-Control: no-store` (pages are personal and the token page must
 * never come back from a cache), a Content-Security-Policy that allows only the page's own inline
 * script and style (by nonce) and, where a page needs it, fetches to named origins;
 * `Referrer-Policy: no-referrer`, so the `code` of a callback URL never leaves in a Referer header;
 * and no framing.
 */
import type { ServerResponse } from 'node:http';
import { randomSecret } from './secrets.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** JSON for a `<script type="application/json">` block: `<` escaped so no `</script>` can end it early. */
export function jsonForHtml(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export interface Page {
  readonly title: string;
  /** Inner HTML of `<body>`, already escaped where it holds data. */
  readonly body: string;
  /** Inline script (runs with the page's nonce). */
  readonly script?: string;
  /** Origins the page's script may fetch from (CSP connect-src). */
  readonly connect?: readonly string[];
}

const STYLE = `
body{font-family:system-ui,sans-serif;margin:0;color:#1d2433;background:#f5f6f8}
header{background:#1d2433;color:#fff;padding:.6rem 1.2rem;display:flex;gap:2rem;align-items:center}
header a{color:#fff}
nav ul{list-style:none;margin:0;padding:0;display:flex;gap:1rem}
nav h2{font-size:.8rem;text-transform:uppercase;margin:0 .6rem 0 0;opacity:.7}
nav{display:flex;align-items:center}
main{max-width:40rem;margin:2rem auto;background:#fff;padding:1.5rem 2rem;border-radius:6px}
label{display:block;margin:.8rem 0 .2rem}
input{font:inherit;padding:.4rem;width:100%;box-sizing:border-box}
button{font:inherit;padding:.4rem 1rem;margin:.8rem .5rem 0 0;cursor:pointer}
.alert{color:#a4161a;font-weight:600}
.signed-in-user{background:#eef1f6;padding:.6rem .8rem;border-radius:4px}
.token{font-family:ui-monospace,monospace;font-size:1.1rem;background:#eef1f6;padding:.3rem .5rem;user-select:all}
.countdown{font-variant-numeric:tabular-nums;margin-left:1rem}
dt{font-weight:600;margin-top:.6rem}
`;

function renderPage(page: Page, nonce: string): string {
  const script = page.script === undefined ? '' : `\n<script nonce="${nonce}">${page.script}</script>`;
  return (
    `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n` +
    `<title>${escapeHtml(page.title)}</title>\n<style nonce="${nonce}">${STYLE}</style>\n</head>\n<body>\n${page.body}${script}\n</body>\n</html>\n`
  );
}

function securityHeaders(nonce: string, connect: readonly string[]): Record<string, string> {
  const connectSrc = connect.length === 0 ? "'none'" : connect.join(' ');
  return {
    'cache-control': 'no-store',
    pragma: 'no-cache',
    'content-security-policy':
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src ${connectSrc}; ` +
      "img-src 'self'; base-uri 'none'; frame-ancestors 'none'",
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
  };
}

export function sendPage(res: ServerResponse, status: number, page: Page, extraHeaders: Readonly<Record<string, string>> = {}): void {
  if (res.writableEnded || res.destroyed) return;
  const nonce = randomSecret(16);
  const body = renderPage(page, nonce);
  res.writeHead(status, {
    ...extraHeaders,
    ...securityHeaders(nonce, page.connect ?? []),
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** 302 to `location` (absolute or path), with no body worth reading and never cached. */
export function sendRedirect(res: ServerResponse, location: string): void {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(302, { location, 'cache-control': 'no-store', pragma: 'no-cache', 'referrer-policy': 'no-referrer', 'content-length': '0' });
  res.end();
}

/** A whole error page: the status, its reason phrase and a detail that never quotes input. */
export function errorPage(title: string, detail: string): Page {
  return { title, body: `<main>\n<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(detail)}</p>\n</main>` };
}
