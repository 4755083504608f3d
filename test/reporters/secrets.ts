/**
 * What the redaction test looks for, and where.
 *
 * - `captureIssuedTokens()` records every body the in-process reference server sends (to tack
 *   in-process or to a tack child process alike) and pulls out each token it handed out: JSON
 *   members named like a token or secret, and token-like query parameters of URLs (reset links).
 *   It also reads what the server is sent (JSON and form bodies: passwords typed into its sign-in
 *   pages, codes, verifiers, tokens) and the URLs of its redirects (one-time codes), so the secrets
 *   a browser carried are searched for too.
 * - `findSecrets()` searches texts for secrets in every form an output path could write them:
 *   raw, URL-encoded, form-encoded, JSON-escaped and HTML-escaped; for configured secrets also any
 *   16-character piece of them (a partial leak such as a tampered copy).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';

const TOKEN_KEY = /token|secret|jwt|password/i;
/** Named like a token but public: a token's type, an endpoint's address (OpenID discovery), ... */
const PUBLIC_KEY = /type|hint|expires|endpoint|supported|_uri$/i;
const TOKEN_PARAM = /token|secret|code|key|sig/i;
/** Shorter values are not tokens (and would match by chance). */
const MIN_TOKEN = 8;
const WINDOW = 16;

export interface Capture {
  /** Every token the server handed out so far. */
  readonly tokens: Set<string>;
  /** Bodies seen (for the test's own sanity checks). */
  readonly bodies: number;
  stop(): void;
}

export function captureIssuedTokens(): Capture {
  const tokens = new Set<string>();
  const original = ServerResponse.prototype.end;
  const originalWriteHead = ServerResponse.prototype.writeHead;
  const originalPush = IncomingMessage.prototype.push;
  const received = new WeakMap<IncomingMessage, Buffer[]>();
  let bodies = 0;
  const patched = function (this: ServerResponse, ...args: unknown[]) {
    const chunk = args[0];
    if (typeof chunk === 'string' || Buffer.isBuffer(chunk)) {
      bodies++;
      for (const token of tokensIn(chunk.toString())) tokens.add(token);
    }
    return (original as (...a: unknown[]) => ServerResponse).apply(this, args);
  };
  ServerResponse.prototype.end = patched as typeof original;
  ServerResponse.prototype.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const headers = args.find((a) => a !== null && typeof a === 'object' && !Array.isArray(a)) as Record<string, unknown> | undefined;
    const location = headers?.['location'] ?? headers?.['Location'];
    if (typeof location === 'string') for (const token of secretsInUrl(location)) tokens.add(token);
    return (originalWriteHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as typeof originalWriteHead;
  IncomingMessage.prototype.push = function (this: IncomingMessage, chunk: unknown, encoding?: BufferEncoding) {
    const parts = received.get(this) ?? [];
    received.set(this, parts);
    if (chunk === null) for (const token of secretsSent(Buffer.concat(parts).toString('utf8'))) tokens.add(token);
    else if (Buffer.isBuffer(chunk)) parts.push(chunk);
    else if (typeof chunk === 'string') parts.push(Buffer.from(chunk, encoding));
    return originalPush.call(this, chunk, encoding);
  };
  return {
    tokens,
    get bodies() {
      return bodies;
    },
    stop() {
      ServerResponse.prototype.end = original;
      ServerResponse.prototype.writeHead = originalWriteHead;
      IncomingMessage.prototype.push = originalPush;
    },
  };
}

/** Secrets in a body sent to the server: JSON members named like one, or form fields (passwords, codes, tokens). */
function secretsSent(body: string): string[] {
  if (body === '') return [];
  const json = tokensIn(body);
  if (json.length > 0) return json;
  const secret = ([name, value]: [string, string]) => (TOKEN_KEY.test(name) || TOKEN_PARAM.test(name)) && !PUBLIC_KEY.test(name) && value.length >= MIN_TOKEN;
  return [...new URLSearchParams(body)].filter(secret).map(([, v]) => v);
}

function secretsInUrl(url: string): string[] {
  try {
    return [...new URL(url, 'http://x').searchParams].filter(([name, value]) => TOKEN_PARAM.test(name) && value.length >= MIN_TOKEN).map(([, v]) => v);
  } catch {
    return [];
  }
}

export function tokensIn(body: string): string[] {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return [];
  }
  const out: string[] = [];
  const walk = (node: unknown, key: string) => {
    if (typeof node === 'string') {
      if (TOKEN_KEY.test(key) && !PUBLIC_KEY.test(key) && node.length >= MIN_TOKEN) out.push(node);
      if (/^https?:\/\//.test(node)) {
        try {
          for (const [name, value] of new URL(node).searchParams) if (TOKEN_PARAM.test(name) && value.length >= MIN_TOKEN) out.push(value);
        } catch {
          /* not a URL after all */
        }
      }
    } else if (Array.isArray(node)) {
      for (const v of node) walk(v, key);
    } else if (node !== null && typeof node === 'object') for (const [k, v] of Object.entries(node)) walk(v, k);
  };
  walk(json, '');
  return out;
}

/** The forms a value can take in an output file. */
export function encodings(value: string): string[] {
  const html = value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
  return [...new Set([value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2), JSON.stringify(value).slice(1, -1), html])];
}

export interface Leak {
  readonly where: string;
  readonly what: string;
}

/**
 * Every place a secret shows up. `configured` are the target's own secrets (searched piece by
 * piece too); `tokens` are values the target returned (searched whole).
 */
export function findSecrets(texts: ReadonlyMap<string, string>, configured: Readonly<Record<string, string>>, tokens: Iterable<string>): Leak[] {
  const needles: { what: string; value: string }[] = [];
  for (const [name, secret] of Object.entries(configured)) {
    for (const form of encodings(secret)) needles.push({ what: name, value: form });
    for (let i = 0; i + WINDOW <= secret.length; i++) needles.push({ what: `${name} (16 characters of it)`, value: secret.slice(i, i + WINDOW) });
  }
  let n = 0;
  for (const token of tokens) {
    n++;
    for (const form of encodings(token)) needles.push({ what: `token #${n} the target returned (${token.length} characters)`, value: form });
  }
  const leaks: Leak[] = [];
  for (const [where, text] of texts) {
    for (const needle of needles) if (text.includes(needle.value)) leaks.push({ where, what: needle.what });
  }
  return leaks;
}

/** Every file under `dir`, by path. */
export function filesUnder(dir: string, into = new Map<string, string>()): Map<string, string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) filesUnder(path, into);
    else into.set(path, readFileSync(path, 'utf8'));
  }
  return into;
}
