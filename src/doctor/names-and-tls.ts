/**
 * Doctor, sections `names` and `tls`: each distinct host of the configuration resolves (tack
 * resolves `*.localhost` to loopback itself, RFC 6761), and an https host's certificate is trusted.
 */
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { localhostAwareLookup, tlsAdvice } from '../harness/http.js';
import type { TargetConfig } from '../harness/target-config.js';
import type { Say } from './diagnosis.js';

/** Says what each host resolves to and how its TLS stands; returns the hosts whose name does not resolve. */
export async function diagnoseNames(target: TargetConfig, sayName: Say, sayTls: Say): Promise<Set<string>> {
  const hosts = new Map<string, { url: URL; variable: string }>();
  const remember = (url: string | undefined, variable: string) => {
    if (!url) return;
    const u = new URL(url);
    if (!hosts.has(u.host)) hosts.set(u.host, { url: u, variable });
  };
  remember(target.baseUrl, 'TACK_BASE_URL');
  remember(target.identityUrl, 'TACK_IDENTITY_URL');
  remember(target.otherBaseUrl, 'TACK_OTHER_BASE_URL');
  remember(target.hook?.url, 'TACK_HOOK_URL');
  remember(target.webUrl, 'TACK_WEB_URL');
  const unresolved = new Set<string>();
  for (const { url, variable } of hosts.values()) {
    const name = url.hostname.replace(/^\[|\]$/g, '');
    if (/^[\d.]+$/.test(name) || name.includes(':')) continue; // an address: nothing to resolve
    const resolved = await resolveName(name);
    if (resolved.ok)
      sayName('ok', `${name} → ${resolved.address}${/(^|\.)localhost$/i.test(name) ? ' (RFC 6761: tack resolves *.localhost to loopback itself)' : ''}`);
    else {
      unresolved.add(url.host);
      sayName('problem', `${name} (${variable}) does not resolve (${resolved.code}): check the host name, or the machine's DNS`);
    }
  }
  const plainLoopback: string[] = [];
  for (const { url, variable } of hosts.values()) {
    if (unresolved.has(url.host)) continue;
    if (url.protocol === 'http:') {
      const loopback = /(^|\.)localhost$/i.test(url.hostname) || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
      if (loopback) plainLoopback.push(url.host);
      else sayTls('warning', `${url.host} (${variable}): plain http, so secrets and tokens cross the network unencrypted; use https outside a lab`);
      continue;
    }
    const tls = await checkTls(url, target.requestTimeoutMs);
    if (tls.ok) sayTls('ok', `${url.host}: certificate trusted${tls.validTo ? `, valid until ${tls.validTo}` : ''}`);
    else if (tls.reason && target.insecureTls && /CERT|SELF_SIGNED|UNABLE|not trusted/.test(tls.reason))
      sayTls('warning', `${url.host}: certificate not trusted (${tls.reason}); accepted only because TACK_INSECURE_TLS=1`);
    else sayTls('problem', `${url.host} (${variable}): TLS failed (${tls.reason ?? 'unknown'})${tls.reason ? tlsAdvice(tls.reason) : ''}`);
  }
  if (plainLoopback.length > 0) sayTls('ok', `not used: plain http on loopback (${plainLoopback.join(', ')})`);
  return unresolved;
}

async function resolveName(name: string): Promise<{ ok: true; address: string } | { ok: false; code: string }> {
  return new Promise((resolve) => {
    localhostAwareLookup(name, { all: true }, (err, addresses) => {
      if (err) resolve({ ok: false, code: err.code ?? err.message });
      else resolve({ ok: true, address: (addresses as { address: string }[]).map((a) => a.address).join(', ') });
    });
  });
}

async function checkTls(url: URL, timeoutMs: number): Promise<{ ok: boolean; reason?: string; validTo?: string }> {
  return new Promise((resolve) => {
    let socket: TLSSocket | undefined;
    const done = (result: { ok: boolean; reason?: string; validTo?: string }) => {
      clearTimeout(timer);
      socket?.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => done({ ok: false, reason: `no TLS handshake within ${timeoutMs} ms` }), timeoutMs);
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    socket = tlsConnect({
      host: hostname,
      port: Number(url.port || 443),
      servername: /^[\d.]+$/.test(hostname) || hostname.includes(':') ? undefined : hostname,
      rejectUnauthorized: false,
      lookup: localhostAwareLookup as never,
    });
    socket.once('secureConnect', () => {
      const cert = socket!.getPeerCertificate();
      const validTo = cert && typeof cert.valid_to === 'string' ? cert.valid_to : undefined;
      if (socket!.authorized) done({ ok: true, ...(validTo ? { validTo } : {}) });
      else done({ ok: false, reason: String(socket!.authorizationError ?? 'not trusted') });
    });
    socket.once('error', (error: NodeJS.ErrnoException) => done({ ok: false, reason: error.code ?? error.message }));
  });
}
