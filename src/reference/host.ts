/**
 * Reading the Host header. The port is ignored; names are compared lower-case without a trailing
 * dot; IPv6 literals keep their brackets (`[::1]`). Anything odd yields undefined, which routes to
 * a 404, never to an exception.
 */

export function hostName(header: string | undefined): string | undefined {
  if (header === undefined || header === '') return undefined;
  let name: string;
  if (header.charCodeAt(0) === 91 /* [ */) {
    const close = header.indexOf(']');
    if (close < 0) return undefined;
    name = header.slice(0, close + 1);
  } else {
    const colon = header.indexOf(':');
    name = colon < 0 ? header : header.slice(0, colon);
  }
  name = name.toLowerCase();
  if (name.endsWith('.')) name = name.slice(0, -1);
  return name === '' ? undefined : name;
}

export type HostKind =
  | { readonly kind: 'tenant'; readonly tenant: string }
  | { readonly kind: 'identity' }
  | { readonly kind: 'hook' }
  | { readonly kind: 'unknown' };

const IDENTITY_HOST = 'id.localhost';
const LOCALHOST_SUFFIX = '.localhost';
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * `id.localhost` is the sign-in server, `{label}.localhost` a tenant host (whether the tenant
 * exists is the router's question), the hook hosts the test hook.
 */
export function classifyHost(name: string | undefined, hookHosts: ReadonlySet<string>): HostKind {
  if (name === undefined) return UNKNOWN;
  if (name === IDENTITY_HOST) return IDENTITY;
  if (hookHosts.has(name)) return HOOK;
  if (name.endsWith(LOCALHOST_SUFFIX)) {
    const label = name.slice(0, -LOCALHOST_SUFFIX.length);
    if (LABEL.test(label)) return { kind: 'tenant', tenant: label };
  }
  return UNKNOWN;
}

const UNKNOWN: HostKind = { kind: 'unknown' };
const IDENTITY: HostKind = { kind: 'identity' };
const HOOK: HostKind = { kind: 'hook' };

/** Host names at which the hook answers: loopback names, `hook.localhost`, and the bind address. */
export function hookHostsFor(bind: string): ReadonlySet<string> {
  const hosts = new Set(['127.0.0.1', 'localhost', 'hook.localhost', '[::1]']);
  if (bind !== '' && bind !== '0.0.0.0' && bind !== '::') hosts.add(bind.includes(':') ? `[${bind.toLowerCase()}]` : bind.toLowerCase());
  return hosts;
}

/** The host part of the hook's URL for a bind address. */
export function urlHostFor(bind: string): string {
  if (bind === '' || bind === '0.0.0.0' || bind === '::') return '127.0.0.1';
  return bind.includes(':') ? `[${bind}]` : bind;
}
