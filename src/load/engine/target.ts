/**
 * Where load goes. autocannon connects with `net.connect(port, hostname)`, which cannot resolve
 * `*.localhost` on machines whose resolver does not know it; so tack resolves the name itself
 * (RFC 6761: `localhost` and `*.localhost` are loopback), points the sockets at the address and
 * sends the real host name in the Host header.
 *
 * Load is only sent to loopback unless `--allow-remote` is given: a load test is a small denial of
 * service, and pointing one at a shared UAT by mistake is the accident this guard prevents.
 */
import { lookup } from 'node:dns/promises';
import { connect, isIP } from 'node:net';
import { TackError } from '../../harness/errors.js';

export interface Endpoint {
  /** `http://127.0.0.1:PORT`: where sockets connect. */
  readonly connectUrl: string;
  /** `acme.localhost:PORT`: the Host header to send. */
  readonly host: string;
  /** Path prefix of the URL (the realm path of a sign-in server), without a trailing slash. */
  readonly pathPrefix: string;
  /** TLS server name when connecting to an address over https. */
  readonly servername: string | undefined;
  readonly loopback: boolean;
}

export function isLoopbackAddress(address: string): boolean {
  const a = address.toLowerCase().replace(/^\[|\]$/g, '');
  if (isIP(a) === 4) return a.startsWith('127.');
  if (a === '::1' || a === '0:0:0:0:0:0:0:1') return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  return mapped !== null && mapped[1]!.startsWith('127.');
}

/** `localhost` and `*.localhost`: loopback by RFC 6761, resolved by tack itself. */
export function isLocalhostName(name: string): boolean {
  const n = name.toLowerCase().replace(/\.$/, '');
  return n === 'localhost' || n.endsWith('.localhost');
}

/** Resolves one URL of the target to the socket address load goes to. */
export async function resolveEndpoint(url: string, role: string, allowRemote: boolean): Promise<Endpoint> {
  const u = new URL(url);
  const port = u.port !== '' ? u.port : u.protocol === 'https:' ? '443' : '80';
  const name = u.hostname.replace(/^\[|\]$/g, '');
  let address: string;
  if (isLocalhostName(name)) address = '127.0.0.1';
  else if (isIP(name) !== 0) address = name;
  else {
    try {
      const all = await lookup(name, { all: true });
      const loop = all.find((a) => isLoopbackAddress(a.address));
      address = (loop ?? all[0])?.address ?? name;
    } catch {
      throw new TackError('TACK_ERR_UNREACHABLE', `${role} ${u.origin}: the host name does not resolve`);
    }
  }
  const loopback = isLoopbackAddress(address);
  if (!loopback && !allowRemote) {
    throw new TackError(
      'TACK_ERR_USAGE',
      `${role} ${u.origin} is not on this machine (${address} is not a loopback address); ` +
        'tack load sends load only to loopback targets unless --allow-remote is given (see docs/load.md)',
    );
  }
  const hostForUrl = isIP(address) === 6 ? `[${address}]` : address;
  return {
    connectUrl: `${u.protocol}//${hostForUrl}:${port}`,
    host: u.host,
    pathPrefix: u.pathname.replace(/\/+$/, ''),
    servername: u.protocol === 'https:' && isIP(name) === 0 ? name : undefined,
    loopback,
  };
}

/** Whether two endpoints share one connection pool (same scheme, socket address and port). */
export function sameOrigin(a: Endpoint, b: Endpoint): boolean {
  return a.connectUrl === b.connectUrl && a.servername === b.servername;
}

/** One TCP connection to where load will go, so a target that is down is one clear error, not a storm of refused sockets. */
export function probe(endpoint: Endpoint, timeoutMs: number): Promise<void> {
  const u = new URL(endpoint.connectUrl);
  const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
  return new Promise((resolve, reject) => {
    const socket = connect({ host: u.hostname.replace(/^\[|\]$/g, ''), port });
    const fail = (why: string) => {
      socket.destroy();
      reject(new TackError('TACK_ERR_UNREACHABLE', `${endpoint.host} (${endpoint.connectUrl}) ${why}; no load was sent`));
    };
    socket.setTimeout(timeoutMs, () => fail(`did not accept a connection within ${timeoutMs} ms`));
    socket.once('error', (error: NodeJS.ErrnoException) =>
      fail(error.code === 'ECONNREFUSED' ? 'refused the connection (is it running?)' : `could not be reached (${error.code ?? error.message})`),
    );
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
  });
}
