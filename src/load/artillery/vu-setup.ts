/**
 * What the Artillery processor needs besides the profiles: the target, read from the TACK_*
 * variables at run time (never written into the exported files), the loopback guard, and the setup
 * calls a virtual user makes for its chain (through the test hook or the partner key).
 *
 * None of it is a second copy of tack's: the variables are read and checked as tack reads them
 * (src/harness/config.ts, config/schema.ts: a misspelt or malformed variable is the same error), and
 * the setup calls are tack's own clients (`HookClient`, `PartnerClient`), sending over node:http
 * here, since the processor is one self-contained file on Artillery's runners.
 *
 * Like tack, it sends load only to loopback targets unless TACK_ALLOW_REMOTE=1 (set it on runners
 * that load a target you own: Artillery's distributed runners are never on the target's machine),
 * and resolves `*.localhost` to 127.0.0.1 itself. It never prints a token.
 */
import { randomBytes } from 'node:crypto';
import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { HookClient } from '../../harness/clients/hook.js';
import { PartnerClient } from '../../harness/clients/partner.js';
import { collectEnv, resolveTarget, validateEnv } from '../../harness/config.js';
import type { HttpClient, HttpResponse } from '../../harness/http.js';
import type { TargetConfig } from '../../harness/target-config.js';
import { accessTolerance } from '../../spec.js';
import type { Tally } from '../engine/engine.js';
import { isLocalhostName, isLoopbackAddress, type Endpoint } from '../engine/target.js';
import type { VuContext } from './form.js';

export interface Settings {
  /** The target as tack resolves it from the TACK_* variables. */
  readonly target: TargetConfig;
  /** TACK_ALLOW_REMOTE. */
  readonly allowRemote: boolean;
}

/** The TACK_* variables of `env`, checked by tack's own schema. */
export function readSettings(env: NodeJS.ProcessEnv): Settings {
  const raw = collectEnv({ env });
  if (raw.TACK_BASE_URL === undefined) throw new Error('TACK_BASE_URL is not set: the tack Artillery processor reads the target from the environment');
  const valid = validateEnv(raw);
  return { target: resolveTarget(valid, false), allowRemote: valid.TACK_ALLOW_REMOTE };
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup, with `*.localhost` answered as 127.0.0.1 (RFC 6761), as tack does. */
export function lookup(hostname: string, options: LookupOptions | LookupCallback, callback?: LookupCallback): void {
  const done = (typeof options === 'function' ? options : callback)!;
  const opts = typeof options === 'function' ? {} : options;
  if (isLocalhostName(hostname)) {
    if (opts.all) process.nextTick(done, null, [{ address: '127.0.0.1', family: 4 }]);
    else process.nextTick(done, null, '127.0.0.1', 4);
    return;
  }
  dns.lookup(hostname, opts, done as never);
}

/** Resolves every host the run talks to, and refuses a non-loopback one unless TACK_ALLOW_REMOTE=1. */
export async function checkTargets(s: Settings): Promise<void> {
  for (const u of [s.target.baseUrl, s.target.identityUrl, ...(s.target.hook ? [s.target.hook.url] : [])].map((href) => new URL(href))) {
    const name = u.hostname.replace(/^\[|\]$/g, '');
    let addresses: string[];
    if (isLocalhostName(name)) addresses = ['127.0.0.1'];
    else if (isIP(name)) addresses = [name];
    else addresses = (await dns.promises.lookup(name, { all: true })).map((a) => a.address);
    if (!addresses.some(isLoopbackAddress) && !s.allowRemote) {
      throw new Error(`${u.origin} is not on this machine: tack's processor sends load only to loopback targets unless TACK_ALLOW_REMOTE=1`);
    }
  }
}

/** A target URL as the profiles' requests address it: sent to its own host (`lookup` maps `*.localhost`). */
function endpointOf(href: string): Endpoint {
  const u = new URL(href);
  const name = u.hostname.replace(/^\[|\]$/g, '');
  return { connectUrl: u.origin, host: u.host, pathPrefix: u.pathname.replace(/\/+$/, ''), servername: undefined, loopback: isLocalhostName(name) };
}

/** What tack's clients send through: here node:http(s), with the processor's lookup and TACK_REQUEST_TIMEOUT_MS. */
function nodeSender(target: TargetConfig): Pick<HttpClient, 'send'> {
  let seq = 0;
  return {
    send: (req) =>
      new Promise<HttpResponse>((resolve, reject) => {
        const to = new URL(req.url);
        const started = performance.now();
        const client = to.protocol === 'https:' ? https : http;
        const options = { method: req.method, headers: req.headers, lookup, rejectUnauthorized: !target.insecureTls };
        const sent = client.request(to, { ...options, timeout: target.requestTimeoutMs }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => {
            text += c;
          });
          res.on('end', () => {
            let json: unknown;
            try {
              json = text === '' ? undefined : JSON.parse(text);
            } catch {
              json = undefined;
            }
            const headers = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]));
            resolve({ status: res.statusCode ?? 0, headers, text, json, ms: performance.now() - started, seq: ++seq });
          });
        });
        const what = `${req.role ?? 'request'} ${req.method} ${to.origin}${to.pathname}`;
        sent.on('timeout', () => sent.destroy(new Error(`${what}: no answer within ${target.requestTimeoutMs} ms (TACK_REQUEST_TIMEOUT_MS)`)));
        sent.on('error', reject);
        sent.end(req.body);
      }),
  };
}

const is2xx = (status: number) => status >= 200 && status <= 299;

const emailFor = () => `tack+art${Date.now().toString(36)}${randomBytes(3).toString('hex')}.load@example.com`;

/** The setup calls of one VU (form.ts `VuContext`), through tack's own clients. */
export function vuContext(s: Settings, tally: Tally): VuContext {
  const { target } = s;
  const sender = nodeSender(target);
  const hook = () => {
    if (!target.hook) {
      throw new Error(
        "this profile needs the target's test hook for its chains: set TACK_HOOK_URL and TACK_HOOK_TOKEN (hookless token pools stay with tack load --shard)",
      );
    }
    return new HookClient(sender, target.hook.url, target.hook.token);
  };
  return {
    identity: endpointOf(target.identityUrl),
    tenant: endpointOf(target.baseUrl),
    clientId: target.clientId,
    accessToleranceS: accessTolerance(target),
    tally,
    async hookUserWithApiToken() {
      const client = hook();
      const email = emailFor();
      await client.createUser(target.tenant, { email, firstName: 'Load', lastName: 'Artillery', signIn: 'direct' });
      return { email, apiToken: await client.apiToken(target.tenant, email) };
    },
    async grantReadToNewBusiness(email) {
      const client = hook();
      const business = await client.createBusiness(target.tenant, { name: `Load ${email}`, registrationNumber: randomBytes(4).toString('hex') });
      await client.setAccess(target.tenant, business, email, 'read');
    },
    async partnerUser() {
      if (!target.partner) throw new Error('this profile needs the partner key: set TACK_PARTNER_CLIENT_ID and TACK_PARTNER_SECRET');
      // The processor prints no answer, so there is nothing to redact.
      const client = new PartnerClient(sender, { register: () => undefined }, target.baseUrl, target.partner, target);
      const user = emailFor();
      const created = await client.createUser({ email: user, firstName: 'Load', lastName: 'Artillery' });
      if (!is2xx(created.status)) throw new Error(`creating a user with the partner key answered ${created.status}, expected 201`);
      // The token fields are found on one real mint, then read directly on every answer, as tack does.
      const mint = await client.mint(user);
      if (!is2xx(mint.res.status)) throw new Error(`minting a token for a user just created answered ${mint.res.status}, expected 2xx`);
      if (!mint.access) throw new Error('the mint answer has no access token tack could find (set TACK_PARTNER_ACCESS_TOKEN_FIELD)');
      const wire = { tenant: endpointOf(target.baseUrl), credentials: client.headers(), accessField: mint.access.field, refreshField: mint.refresh?.field };
      return { user, wire, refreshToken: mint.refresh?.value };
    },
  };
}
