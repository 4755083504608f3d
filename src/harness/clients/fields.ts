/**
 * Finding values whose field names the spec does not give: the partner token response and the
 * reset-password action URL. A configured dotted path wins; otherwise the common spellings are
 * tried, and the caller reports which field was used.
 */

export interface Found<T> {
  readonly value: T;
  /** Dotted path of the field the value came from. */
  readonly field: string;
}

const ACCESS_SPELLINGS = ['accesstoken', 'access_token', 'token', 'jwt', 'bearertoken', 'idtoken'];
const REFRESH_SPELLINGS = ['refreshtoken', 'refresh_token'];

export function getPath(value: unknown, path: string): unknown {
  let node: unknown = value;
  for (const part of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

function normalise(key: string): string {
  return key.toLowerCase().replace(/[-\s]/g, '');
}

/** Breadth-first search (objects only, depth 3) for a string member whose name is one of `spellings`. */
function findBySpelling(json: unknown, spellings: readonly string[]): Found<string> | undefined {
  const wanted = new Set(spellings.flatMap((s) => [s, s.replace(/_/g, '')]));
  let level: { node: unknown; path: string }[] = [{ node: json, path: '' }];
  for (let depth = 0; depth < 3 && level.length > 0; depth++) {
    const next: typeof level = [];
    for (const spelling of spellings) {
      for (const { node, path } of level) {
        if (node === null || typeof node !== 'object' || Array.isArray(node)) continue;
        for (const [key, v] of Object.entries(node)) {
          const n = normalise(key);
          if ((n === spelling || n.replace(/_/g, '') === spelling.replace(/_/g, '')) && wanted.has(n) && typeof v === 'string' && v !== '') {
            return { value: v, field: path + key };
          }
        }
      }
    }
    for (const { node, path } of level) {
      if (node === null || typeof node !== 'object' || Array.isArray(node)) continue;
      for (const [key, v] of Object.entries(node)) if (v !== null && typeof v === 'object') next.push({ node: v, path: `${path}${key}.` });
    }
    level = next;
  }
  return undefined;
}

function byConfiguredPath(json: unknown, path: string | undefined): Found<string> | undefined {
  if (path === undefined) return undefined;
  const v = getPath(json, path);
  return typeof v === 'string' && v !== '' ? { value: v, field: path } : undefined;
}

export function findAccessToken(json: unknown, configured: string | undefined): Found<string> | undefined {
  return configured !== undefined ? byConfiguredPath(json, configured) : findBySpelling(json, ACCESS_SPELLINGS);
}

export function findRefreshToken(json: unknown, configured: string | undefined): Found<string> | undefined {
  return configured !== undefined ? byConfiguredPath(json, configured) : findBySpelling(json, REFRESH_SPELLINGS);
}

/**
 * The reset-password action URL. TACK_RESET_URL_FIELD wins. Otherwise a URL-like member (absolute,
 * or a path) whose name says what it holds: names with "action" or "reset" first, then "url",
 * "link", "href" (breadth-first, so `actionUrl` beats a nested help link); its value is returned
 * even when it is relative, so a relative action URL is caught although some other link in the
 * body is absolute. Failing that, the first absolute http(s) URL in the body (the contract's default).
 *
 * The resource's own address is no action URL: a `self` link (HAL's `_links.self.href`, JSON:API's
 * `links.self`) and the address of the call itself (`own`, query aside) are never taken, so an
 * answer that carries only those has none.
 */
export function findResetUrl(json: unknown, text: string, configured: string | undefined, own?: string): Found<string> | undefined {
  if (configured !== undefined) return byConfiguredPath(json, configured);
  const notOwn = (value: string) => own === undefined || !sameResource(value, own);
  if (json !== undefined) return byUrlName(json, notOwn) ?? firstUrlIn(json, '', notOwn);
  for (const m of text.matchAll(/https?:\/\/[^\s"'<>]+/gi)) if (notOwn(m[0])) return { value: m[0], field: '(body text)' };
  return undefined;
}

const URL_NAMES: readonly RegExp[] = [/action|reset/, /url|link|href|uri/];

/** A member that names the resource itself, never an action: HAL, JSON:API and Siren call it `self`. */
function isSelf(key: string): boolean {
  return normalise(key) === 'self';
}

/** The same origin and path (query and fragment aside): `value` is the address `own` names. */
function sameResource(value: string, own: string): boolean {
  try {
    const a = new URL(value.trim());
    const b = new URL(own);
    return a.origin === b.origin && a.pathname.replace(/\/+$/, '') === b.pathname.replace(/\/+$/, '');
  } catch {
    return false;
  }
}

function looksLikeUrl(value: string): boolean {
  return isAbsoluteHttpUrl(value) || /^\/[^\s/]/.test(value.trim());
}

function byUrlName(json: unknown, allowed: (value: string) => boolean): Found<string> | undefined {
  for (const pattern of URL_NAMES) {
    let level: { node: unknown; path: string }[] = [{ node: json, path: '' }];
    for (let depth = 0; depth < 4 && level.length > 0; depth++) {
      const next: typeof level = [];
      for (const { node, path } of level) {
        if (node === null || typeof node !== 'object') continue;
        for (const [key, v] of Object.entries(node)) {
          if (isSelf(key)) continue;
          if (typeof v === 'string' && pattern.test(normalise(key)) && looksLikeUrl(v) && allowed(v)) return { value: v, field: path + key };
          if (v !== null && typeof v === 'object') next.push({ node: v, path: `${path}${key}.` });
        }
      }
      level = next;
    }
  }
  return undefined;
}

function firstUrlIn(node: unknown, path: string, allowed: (value: string) => boolean): Found<string> | undefined {
  if (typeof node === 'string') return isAbsoluteHttpUrl(node) && allowed(node) ? { value: node, field: path || '(body)' } : undefined;
  if (node === null || typeof node !== 'object') return undefined;
  for (const [key, v] of Object.entries(node)) {
    if (isSelf(key)) continue;
    const found = firstUrlIn(v, path ? `${path}.${key}` : key, allowed);
    if (found) return found;
  }
  return undefined;
}

export function isAbsoluteHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '' && /^https?:\/\//i.test(value.trim());
  } catch {
    return false;
  }
}
