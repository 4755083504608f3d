import { diagnoseWeb } from './browser/doctor-checks.js';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { HookClient } from './clients/hook.js';
import { probePartnerKey, probeSignIn } from './config-probes.js';
import { PartnerClient } from './clients/partner.js';
import { errorText } from './context.js';
import { isTackError } from './errors.js';
import { type HttpClient, localhostAwareLookup, tlsAdvice } from './http.js';
import { lockHolder } from './lock.js';
import { probeHost, probesOf } from './preflight.js';
import type { Redactor } from './redactor.js';
import { planRules, type RulePlan } from './runner/selection.js';
import { inspectTokenFile } from './token-file.js';
import { ALL_CAPABILITIES, type PartnerKey, type TargetConfig, type TestCase } from './types.js';

export type FindingStatus = 'ok' | 'problem' | 'warning' | 'skipped';

export interface Finding {
  readonly section: 'config' | 'names' | 'tls' | 'hosts' | 'sign-in' | 'partner' | 'hook' | 'token file' | 'browser';
  readonly status: FindingStatus;
  readonly text: string;
}

export type { RulePlan };

export interface DoctorReport {
  readonly findings: readonly Finding[];
  readonly plan: readonly RulePlan[];
  readonly problems: number;
}

export interface DoctorInput {
  readonly target: TargetConfig;
  readonly http: HttpClient;
  readonly redactor: Redactor;
  readonly tests: readonly TestCase[];
}

export async function runDoctor(input: DoctorInput): Promise<DoctorReport> {
  const { target, http, redactor } = input;
  const findings: Finding[] = [];
  const add = (section: Finding['section'], status: FindingStatus, text: string) => findings.push({ section, status, text: redactor.redact(text) });

  const mode = target.hook
    ? 'hook mode (TACK_HOOK_URL)'
    : target.hookless
      ? 'hookless mode (TACK_USER_EMAIL, TACK_API_TOKEN_FILE)'
      : target.userEmail
        ? 'partner-key mode: TACK_USER_EMAIL proves minted tokens work; no source of API tokens (neither the hook nor a token file)'
        : 'no source of API tokens (neither the hook nor a token file)';
  add(
    'config',
    'ok',
    `valid: ${target.builtIn ? 'the built-in reference server' : 'a remote target'}, ${mode}; ` +
      `request timeout ${target.requestTimeoutMs} ms, run deadline ${target.runDeadlineS} s`,
  );
  if (!target.partner) add('config', 'warning', 'no partner key (TACK_PARTNER_CLIENT_ID, TACK_PARTNER_SECRET): partner-key rules will be skipped');
  if (!target.otherBaseUrl) add('config', 'warning', 'no tenant B (TACK_OTHER_BASE_URL, TACK_OTHER_PARTNER_*): cross-tenant rules will be skipped');
  if (!target.hook && !target.userEmail) {
    add(
      'config',
      'warning',
      'no user who reads a business (TACK_USER_EMAIL, or the hook): that minted and exchanged tokens work cannot be seen, so those rules will be skipped',
    );
  }

  // ── Names and TLS, per distinct host ────────────────────────────────────────────────────────
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
      add('names', 'ok', `${name} → ${resolved.address}${/(^|\.)localhost$/i.test(name) ? ' (RFC 6761: tack resolves *.localhost to loopback itself)' : ''}`);
    else {
      unresolved.add(url.host);
      add('names', 'problem', `${name} (${variable}) does not resolve (${resolved.code}): check the host name, or the machine's DNS`);
    }
  }
  const plainLoopback: string[] = [];
  for (const { url, variable } of hosts.values()) {
    if (unresolved.has(url.host)) continue;
    if (url.protocol === 'http:') {
      const loopback = /(^|\.)localhost$/i.test(url.hostname) || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
      if (loopback) plainLoopback.push(url.host);
      else add('tls', 'warning', `${url.host} (${variable}): plain http, so secrets and tokens cross the network unencrypted; use https outside a lab`);
      continue;
    }
    const tls = await checkTls(url, target.requestTimeoutMs);
    if (tls.ok) add('tls', 'ok', `${url.host}: certificate trusted${tls.validTo ? `, valid until ${tls.validTo}` : ''}`);
    else if (tls.reason && target.insecureTls && /CERT|SELF_SIGNED|UNABLE|not trusted/.test(tls.reason))
      add('tls', 'warning', `${url.host}: certificate not trusted (${tls.reason}); accepted only because TACK_INSECURE_TLS=1`);
    else add('tls', 'problem', `${url.host} (${variable}): TLS failed (${tls.reason ?? 'unknown'})${tls.reason ? tlsAdvice(tls.reason) : ''}`);
  }

  if (plainLoopback.length > 0) add('tls', 'ok', `not used: plain http on loopback (${plainLoopback.join(', ')})`);

  // ── Each host answers HTTP ──────────────────────────────────────────────────────────────────
  const down = new Set<string>(unresolved);
  for (const probe of probesOf(target)) {
    const host = new URL(probe.url).host;
    if (down.has(host)) {
      add('hosts', 'skipped', `${probe.role} ${new URL(probe.url).origin}: not tried (its name does not resolve)`);
      continue;
    }
    const started = performance.now();
    const problem = await probeHost(http, probe);
    if (problem) {
      down.add(host);
      add('hosts', 'problem', problem.message);
    } else add('hosts', 'ok', `${probe.role} ${new URL(probe.url).origin} answers (${Math.round(performance.now() - started)} ms)`);
  }
  const isDown = (url: string) => down.has(new URL(url).host);

  // ── The sign-in server: token endpoint and client id ────────────────────────────────────────
  if (isDown(target.identityUrl)) add('sign-in', 'skipped', 'token endpoint not tried: the sign-in server is not reachable');
  else {
    const signIn = await probeSignIn(http, target);
    add('sign-in', signIn.status, signIn.text);
  }

  // ── Partner keys ────────────────────────────────────────────────────────────────────────────
  const partnerChecks: [string, string, PartnerKey | undefined, string, string][] = [
    ["tenant A's partner key", target.baseUrl, target.partner, 'TACK_PARTNER_CLIENT_ID', 'TACK_PARTNER_SECRET'],
    ["tenant B's partner key", target.otherBaseUrl ?? '', target.otherPartner, 'TACK_OTHER_PARTNER_CLIENT_ID', 'TACK_OTHER_PARTNER_SECRET'],
  ];
  for (const [what, baseUrl, key, idVar, secretVar] of partnerChecks) {
    if (!key || baseUrl === '') {
      add('partner', 'skipped', `${what}: not configured (${idVar}, ${secretVar})`);
      continue;
    }
    if (isDown(baseUrl)) {
      add('partner', 'skipped', `${what}: not tried (${new URL(baseUrl).origin} is not reachable)`);
      continue;
    }
    const partner = await probePartnerKey({ client: new PartnerClient(http, redactor, baseUrl, key, target), what, idVar, secretVar }, target);
    add('partner', partner.status, partner.text);
  }

  // ── The test hook ───────────────────────────────────────────────────────────────────────────
  let hook: HookClient | undefined;
  let hookProblem: string | undefined;
  if (!target.hook)
    add('hook', 'skipped', 'not configured (TACK_HOOK_URL, TACK_HOOK_TOKEN): rules that need time travel, fresh users or disabling will be skipped');
  else if (isDown(target.hook.url)) {
    hookProblem = 'the test hook is not reachable';
    add('hook', 'skipped', `not tried: ${hookProblem}`);
  } else {
    const client = new HookClient(http, target.hook.url, target.hook.token);
    try {
      const capabilities = await client.discover();
      hook = client;
      const missing = ALL_CAPABILITIES.filter((c) => !capabilities.has(c));
      add('hook', 'ok', `contract ${client.contract || '(none named)'}, capabilities: ${[...capabilities].join(', ') || 'none'}`);
      if (client.contract !== 'tack-hook/1')
        add('hook', 'warning', `the hook names contract "${client.contract}", not tack-hook/1: calls may not behave as tack expects`);
      if (missing.length > 0)
        add('hook', 'warning', `the hook does not offer ${missing.join(', ')}: rules that need ${missing.length === 1 ? 'it' : 'them'} will be skipped`);
    } catch (error) {
      hookProblem = errorText(error);
      add('hook', 'problem', isTackError(error) ? error.message : hookProblem);
    }
  }

  // ── The token file (hookless mode) ──────────────────────────────────────────────────────────
  if (!target.hookless)
    add('token file', 'skipped', target.hook ? 'not configured: API tokens come from the test hook' : 'not configured (TACK_USER_EMAIL, TACK_API_TOKEN_FILE)');
  else {
    const { tokenFile, userEmail } = target.hookless;
    const report = inspectTokenFile(tokenFile);
    for (const p of report.problems) add('token file', 'problem', p);
    for (const w of report.warnings) add('token file', 'warning', `${tokenFile}: ${w}`);
    if (report.ok) add('token file', 'ok', `${tokenFile} (user ${userEmail}): ${report.notes.join('; ')}`);
    const holder = lockHolder(tokenFile);
    if (holder && !holder.startsWith('nobody'))
      add('token file', 'warning', `${tokenFile} is locked by ${holder}: a run now would wait, then stop with TACK_ERR_TOKEN_FILE_LOCKED`);
    else if (holder) add('token file', 'ok', `lock: ${holder}`);
    add('token file', 'ok', 'not exchanged by doctor (an exchange rotates the token); a run exchanges it and stores each rotation before using it');
  }

  // ── The browser, the token page, sign-in ─────────────────────────────────────────────────────
  const hookMakesUsers = hook?.has('users') === true && hook.has('passwords');
  await diagnoseWeb(target, redactor, hookMakesUsers, isDown(target.webUrl), (status, text) => add('browser', status, text));

  const plan = planRules(input.tests, [], target, hook, hookProblem);
  return { findings, plan, problems: findings.filter((f) => f.status === 'problem').length };
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
