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
 * body is absolute. Failing that, the one absolute http(s) URL in the body (the contract's default).
 *
 * Some URLs are never the action (docs/judging.md):
 * - the resource's own address: a `self` link (HAL's `_links.self.href`, JSON:API's `links.self`)
 *   and the address of the call itself (`own`, query aside);
 * - a member named for metadata (`$schema`, `help`, `docs`, `user`, `type`, ...), at any level of
 *   its path, so HAL's `_links.user.href` is out too;
 * - unless named for an action or a reset, an address the API itself serves: a path under `/api/`
 *   on the host of the call (the link to the user resource, say).
 * When several absolute URLs remain and none is named like one, the answer is ambiguous: `ambiguous`
 * lists their fields and no URL is returned, so the check is skipped naming TACK_RESET_URL_FIELD.
 */
export function searchResetUrl(json: unknown, text: string, configured: string | undefined, own?: string): ResetUrlSearch {
  if (configured !== undefined) return { url: byConfiguredPath(json, configured) };
  const notOwn = (value: string) => own === undefined || !sameResource(value, own);
  const notApi = (value: string) => notOwn(value) && (own === undefined || !servedByApi(value, own));
  if (json !== undefined) {
    const named = byUrlName(json, notOwn, notApi);
    if (named) return { url: named };
    const unnamed = absoluteUrlsIn(json, '', notApi);
    if (unnamed.length > 1) return { ambiguous: unnamed.map((u) => u.field) };
    return { url: unnamed[0] };
  }
  const inText = [...text.matchAll(/https?:\/\/[^\s"'<>]+/gi)].map((m) => m[0]).filter(notApi);
  if (new Set(inText).size > 1) return { ambiguous: ['(body text)'] };
  return { url: inText[0] === undefined ? undefined : { value: inText[0], field: '(body text)' } };
}

interface ResetUrlSearch {
  readonly url?: Found<string> | undefined;
  /** The fields of several absolute URLs, none named like the action: which one is meant is not known. */
  readonly ambiguous?: readonly string[];
}

/** {@link searchResetUrl}'s URL alone (none when ambiguous). */
export function findResetUrl(json: unknown, text: string, configured: string | undefined, own?: string): Found<string> | undefined {
  return searchResetUrl(json, text, configured, own).url;
}

const URL_NAMES: readonly RegExp[] = [/action|reset/, /url|link|href|uri/];

/** Member names of metadata about the answer or the user, never the action a caller delivers. */
const METADATA_NAMES = new Set([
  'self',
  '$schema',
  'schema',
  '$id',
  'id',
  'help',
  'docs',
  'doc',
  'documentation',
  'describedby',
  'profile',
  'type',
  'user',
  'users',
  'owner',
  'subject',
  'tenant',
  'about',
  'related',
  'collection',
  'up',
  'terms',
  'privacy',
  'support',
  'contact',
  'icon',
  'logo',
  'avatar',
  'image',
  'curies',
]);

/** A member named for metadata: `self` (HAL, JSON:API, Siren), `$schema`, `help`, `user`, ... */
function isMetadata(key: string): boolean {
  return METADATA_NAMES.has(normalise(key));
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

/** An address of the API itself: a path under /api/ on the host `own` was called on (a path alone is on that host). */
function servedByApi(value: string, own: string): boolean {
  try {
    const b = new URL(own);
    const a = new URL(value.trim(), b);
    return a.origin === b.origin && /^\/api(\/|$)/.test(a.pathname);
  } catch {
    return false;
  }
}

function looksLikeUrl(value: string): boolean {
  return isAbsoluteHttpUrl(value) || /^\/[^\s/]/.test(value.trim());
}

/**
 * The first URL-like member whose own name matches a pattern of {@link URL_NAMES}, or, for
 * `href`/`url`-style leaves, whose parent's name does (HAL's `_links.reset.href`). A member named for
 * an action or a reset may be an API address (`allowedNamed`); one only named url/link/href may not.
 */
function byUrlName(json: unknown, allowedNamed: (value: string) => boolean, allowed: (value: string) => boolean): Found<string> | undefined {
  for (const [index, pattern] of URL_NAMES.entries()) {
    let level: { node: unknown; path: string; parent: string }[] = [{ node: json, path: '', parent: '' }];
    for (let depth = 0; depth < 4 && level.length > 0; depth++) {
      const next: typeof level = [];
      for (const { node, path, parent } of level) {
        if (node === null || typeof node !== 'object') continue;
        for (const [key, v] of Object.entries(node)) {
          if (isMetadata(key)) continue;
          const named = pattern.test(normalise(key)) || (index === 0 && pattern.test(normalise(parent)) && URL_NAMES[1]!.test(normalise(key)));
          const ok = index === 0 ? allowedNamed : allowed;
          if (typeof v === 'string' && named && looksLikeUrl(v) && ok(v)) return { value: v, field: path + key };
          if (v !== null && typeof v === 'object') next.push({ node: v, path: `${path}${key}.`, parent: key });
        }
      }
      level = next;
    }
  }
  return undefined;
}

/** Every absolute URL in the body outside metadata members, distinct by value, in document order. */
function absoluteUrlsIn(node: unknown, path: string, allowed: (value: string) => boolean, seen = new Set<string>()): Found<string>[] {
  if (typeof node === 'string') {
    if (!isAbsoluteHttpUrl(node) || !allowed(node) || seen.has(node)) return [];
    seen.add(node);
    return [{ value: node, field: path || '(body)' }];
  }
  if (node === null || typeof node !== 'object') return [];
  const found: Found<string>[] = [];
  for (const [key, v] of Object.entries(node)) {
    if (isMetadata(key)) continue;
    found.push(...absoluteUrlsIn(v, path ? `${path}.${key}` : key, allowed, seen));
  }
  return found;
}

export function isAbsoluteHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '' && /^https?:\/\//i.test(value.trim());
  } catch {
    return false;
  }
}
