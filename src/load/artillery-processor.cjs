'use strict';
/**
 * tack's processor for Artillery (written next to the script by `tack load export artillery`).
 * It keeps tack's load semantics inside Artillery's virtual users (VUs):
 *
 * - one rotation chain per VU: `tackSetUp` (beforeScenario) makes the VU's own chain through the
 *   target's test hook (a fresh user and API token; for exchange-search also read access to one new
 *   business) or, for the partner profiles, through the partner key (a user, and for
 *   partner-refresh one mint);
 * - the rotated token is stored in the VU's variables as soon as an answer carries it, before the
 *   next request of the chain is built (a VU sends one request at a time);
 * - every answer is judged as tack judges it (docs/spec/tenant-api-access.md): an exchange 200
 *   needs access_token, a refresh_token different from the one sent, token_type Bearer and
 *   expires_in exactly 300; 400 invalid_grant on the chain's current token is a broken chain and
 *   ends the VU; a search 401 is expected only for an access token at least 300 s minus
 *   TACK_ACCESS_TOLERANCE_S old;
 * - counters `tack.*` (emitted as 0 by every VU, so the script's `ensure` checks always find them):
 *   tack.chains_broken, tack.against_spec, tack.unexpected_status, tack.transport_errors,
 *   tack.timeouts, tack.setup_failed, tack.rotations, tack.expected_401.
 *
 * Nothing secret is in the script or here: the target, the hook token and the partner secret are
 * read from the environment at run time (TACK_BASE_URL, TACK_IDENTITY_URL, TACK_HOOK_URL,
 * TACK_HOOK_TOKEN, TACK_PARTNER_CLIENT_ID, TACK_PARTNER_SECRET, TACK_PARTNER_HEADERS, TACK_CLIENT_ID,
 * TACK_PARTNER_ACCESS_TOKEN_FIELD, TACK_PARTNER_REFRESH_TOKEN_FIELD, TACK_ACCESS_TOLERANCE_S,
 * TACK_INSECURE_TLS), and tokens are never printed or counted by value.
 *
 * Like tack, it sends load only to loopback targets unless TACK_ALLOW_REMOTE=1 (set it on runners
 * that load a target you own: Artillery's distributed runners are never on the target's machine).
 * Host names under .localhost resolve to 127.0.0.1 here, as in tack.
 */
const dns = require('node:dns');
const http = require('node:http');
const https = require('node:https');
const net = require('node:net');
const crypto = require('node:crypto');

const LIFETIME_S = 300;
const EXPIRY_MARGIN_MS = 30_000;
const COUNTERS = [
  'tack.chains_started',
  'tack.chains_broken',
  'tack.against_spec',
  'tack.unexpected_status',
  'tack.transport_errors',
  'tack.timeouts',
  'tack.setup_failed',
  'tack.rotations',
  'tack.expected_401',
];
const ACCESS_SPELLINGS = ['accessToken', 'access_token', 'token', 'jwt', 'bearerToken', 'idToken'];
const REFRESH_SPELLINGS = ['refreshToken', 'refresh_token'];

let settingsCache;
let guard;

function required(name) {
  const v = process.env[name];
  if (v === undefined || v.trim() === '') throw new Error(`${name} is not set: the tack Artillery processor reads the target from the environment`);
  return v.trim().replace(/\/+$/, '');
}

function settings() {
  if (settingsCache) return settingsCache;
  const base = new URL(required('TACK_BASE_URL'));
  const identity = new URL(required('TACK_IDENTITY_URL'));
  const headers = (process.env.TACK_PARTNER_HEADERS || 'Tenant-Key-1,Tenant-Key-2').split(',').map((h) => h.trim());
  const tolerance = Number(process.env.TACK_ACCESS_TOLERANCE_S || 5);
  settingsCache = {
    base,
    identity,
    tenant: base.hostname.split('.')[0],
    clientId: process.env.TACK_CLIENT_ID || 'payroll-portal',
    hook: process.env.TACK_HOOK_URL ? { url: new URL(required('TACK_HOOK_URL')), token: required('TACK_HOOK_TOKEN') } : undefined,
    partner: process.env.TACK_PARTNER_CLIENT_ID ? { id: required('TACK_PARTNER_CLIENT_ID'), secret: required('TACK_PARTNER_SECRET'), headers } : undefined,
    accessField: process.env.TACK_PARTNER_ACCESS_TOKEN_FIELD,
    refreshField: process.env.TACK_PARTNER_REFRESH_TOKEN_FIELD,
    dueS: LIFETIME_S - (Number.isInteger(tolerance) && tolerance >= 0 && tolerance <= 15 ? tolerance : 5),
    insecure: process.env.TACK_INSECURE_TLS === '1' || process.env.TACK_INSECURE_TLS === 'true',
  };
  return settingsCache;
}

// ── Where requests go: *.localhost is loopback; nothing else unless TACK_ALLOW_REMOTE=1 ─────────

const isLocalhostName = (name) => name === 'localhost' || name.endsWith('.localhost');

function isLoopback(address) {
  const a = address.replace(/^\[|\]$/g, '');
  if (net.isIP(a) === 4) return a.startsWith('127.');
  if (a === '::1') return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  return mapped !== null && mapped[1].startsWith('127.');
}

function lookup(hostname, options, callback) {
  if (typeof options === 'function') {
    callback = options;
    options = {};
  }
  if (isLocalhostName(hostname.toLowerCase())) {
    if (options && options.all) return process.nextTick(callback, null, [{ address: '127.0.0.1', family: 4 }]);
    return process.nextTick(callback, null, '127.0.0.1', 4);
  }
  return dns.lookup(hostname, options, callback);
}

/** Resolves every host the run talks to once, and refuses a non-loopback one unless allowed. */
function checkTargets() {
  guard ??= (async () => {
    const s = settings();
    const urls = [s.base, s.identity, ...(s.hook ? [s.hook.url] : [])];
    for (const u of urls) {
      const name = u.hostname.replace(/^\[|\]$/g, '');
      let addresses;
      if (isLocalhostName(name.toLowerCase())) addresses = ['127.0.0.1'];
      else if (net.isIP(name)) addresses = [name];
      else addresses = (await dns.promises.lookup(name, { all: true })).map((a) => a.address);
      if (!addresses.some(isLoopback) && process.env.TACK_ALLOW_REMOTE !== '1') {
        throw new Error(`${u.origin} is not on this machine: tack's processor sends load only to loopback targets unless TACK_ALLOW_REMOTE=1`);
      }
    }
  })();
  return guard;
}

/** One JSON call for setup (hook, partner key): { status, json }. */
function call(method, url, headers, body) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method,
        lookup,
        rejectUnauthorized: !settings().insecure,
        timeout: 10_000,
        headers: { accept: 'application/json', ...headers, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          let json;
          try {
            json = text === '' ? undefined : JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode, json });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${url.origin}${url.pathname}: no answer within 10 s`)));
    req.on('error', reject);
    req.end(payload);
  });
}

const join = (u, path) => new URL(u.href.replace(/\/+$/, '') + path);

function expect(res, status, what) {
  if (res.status !== status) throw new Error(`${what} answered ${res.status}, expected ${status}`);
  return res.json;
}

function hookCall(method, path, body) {
  const { hook } = settings();
  if (!hook) {
    throw new Error(
      "this profile needs the target's test hook for its chains: set TACK_HOOK_URL and TACK_HOOK_TOKEN (hookless token pools stay with tack load --shard)",
    );
  }
  return call(method, join(hook.url, path), { authorization: `Bearer ${hook.token}` }, body);
}

function partnerHeaders() {
  const { partner } = settings();
  if (!partner) throw new Error('this profile needs the partner key: set TACK_PARTNER_CLIENT_ID and TACK_PARTNER_SECRET');
  return { [partner.headers[0]]: partner.id, [partner.headers[1]]: partner.secret };
}

function getPath(json, path) {
  return path.split('.').reduce((node, part) => (node !== null && typeof node === 'object' ? node[part] : undefined), json);
}

/** A token field of a partner answer: the configured dotted path, or the common spellings at the top level. */
function findField(json, configured, spellings) {
  if (configured) return getPath(json, configured);
  if (json === null || typeof json !== 'object') return undefined;
  for (const key of Object.keys(json)) {
    const n = key.toLowerCase().replace(/[-_\s]/g, '');
    if (spellings.some((s) => s.toLowerCase().replace(/_/g, '') === n) && typeof json[key] === 'string' && json[key] !== '') return json[key];
  }
  return undefined;
}

const emailFor = () => `tack+art${Date.now().toString(36)}${crypto.randomBytes(3).toString('hex')}.load@example.com`;

// ── Hooks named in the script ──────────────────────────────────────────────────────────────────────

/** beforeScenario: this VU's own chain. */
async function tackSetUp(context, events) {
  for (const name of COUNTERS) events.emit('counter', name, 0);
  const v = context.vars;
  const profile = v.tackProfile;
  try {
    await checkTargets();
    const s = settings();
    const email = emailFor();
    if (profile === 'exchange' || profile === 'exchange-search') {
      const tenant = `/tenants/${encodeURIComponent(s.tenant)}`;
      const user = { email, firstName: 'Load', lastName: 'Artillery', signIn: 'direct' };
      expect(await hookCall('POST', `${tenant}/users`, user), 201, 'creating a user through the test hook');
      const token = expect(await hookCall('POST', `${tenant}/users/${encodeURIComponent(email)}/api-tokens`, {}), 201, 'generating an API token');
      if (!token || typeof token.apiToken !== 'string') throw new Error('the test hook answered 201 without an apiToken');
      v.tackToken = token.apiToken;
      if (profile === 'exchange-search') {
        const fields = { name: `Load ${email}`, registrationNumber: crypto.randomBytes(4).toString('hex') };
        const business = expect(await hookCall('POST', `${tenant}/businesses`, fields), 201, 'creating a business through the test hook');
        const path = `${tenant}/businesses/${encodeURIComponent(String(business.id))}/access/${encodeURIComponent(email)}`;
        expect(await hookCall('PUT', path, { access: 'read' }), 204, 'granting read access');
      }
    } else if (profile === 'partner-mint' || profile === 'partner-refresh') {
      const user = { email, firstName: 'Load', lastName: 'Artillery' };
      expect(await call('POST', join(s.base, '/api/admin/users'), partnerHeaders(), user), 201, 'creating a user with the partner key');
      v.tackUser = email;
      if (profile === 'partner-refresh') {
        const mint = await call('POST', join(s.base, '/api/admin/authentication/token'), partnerHeaders(), { username: email });
        const minted = expect(mint, 200, 'minting a token');
        const refresh = findField(minted, s.refreshField, REFRESH_SPELLINGS);
        if (typeof refresh !== 'string') throw new Error('the mint answer has no refresh token tack could find (set TACK_PARTNER_REFRESH_TOKEN_FIELD)');
        v.tackToken = refresh;
      }
    } else throw new Error(`unknown tack profile ${profile}`);
  } catch (error) {
    events.emit('counter', 'tack.setup_failed', 1);
    throw error;
  }
  events.emit('counter', 'tack.chains_started', 1);
  v.tackUntil = Date.now() + Number(v.tackDurationS) * 1000;
  v.tackEnded = false;
}

function prepare(req, url) {
  req.url = url;
  req.lookup = lookup;
  if (settings().insecure) req.https = { ...(req.https || {}), rejectUnauthorized: false };
}

/** beforeRequest of the exchange: the chain's current token, form-encoded (spec §2). */
function tackExchangeRequest(req, context, events, next) {
  const s = settings();
  const v = context.vars;
  prepare(req, `${join(s.identity, '/protocol/openid-connect/token')}`);
  req.headers = { ...req.headers, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  req.body = `grant_type=refresh_token&client_id=${encodeURIComponent(s.clientId)}&refresh_token=${encodeURIComponent(v.tackToken)}`;
  v.tackSentAt = Date.now();
  return next();
}

function againstSpec(events, kind) {
  events.emit('counter', 'tack.against_spec', 1);
  events.emit('counter', `tack.against_spec.${kind}`, 1);
}

function parse(body) {
  try {
    const json = typeof body === 'string' ? JSON.parse(body) : body;
    return json !== null && typeof json === 'object' && !Array.isArray(json) ? json : undefined;
  } catch {
    return undefined;
  }
}

/** afterResponse of the exchange: judge, and store the rotated token before anything else is sent. */
function tackExchangeAnswer(req, res, context, events, next) {
  const v = context.vars;
  const json = parse(res.body);
  if (res.statusCode === 200) {
    const refresh = json && json.refresh_token;
    if (typeof refresh !== 'string' || refresh === '') {
      againstSpec(events, 'no_refresh_token');
      v.tackEnded = true; // without a token the chain cannot go on
      return next();
    }
    if (refresh === v.tackToken) againstSpec(events, 'no_rotation');
    else {
      v.tackToken = refresh;
      events.emit('counter', 'tack.rotations', 1);
    }
    if (typeof json.access_token !== 'string' || json.access_token === '') againstSpec(events, 'no_access_token');
    else if (typeof json.token_type !== 'string' || json.token_type.toLowerCase() !== 'bearer') againstSpec(events, 'token_type');
    else if (json.expires_in !== LIFETIME_S) againstSpec(events, 'expires_in');
    else {
      v.tackAccess = json.access_token;
      v.tackIssuedAt = v.tackSentAt;
      v.tackRefreshAt = v.tackSentAt + LIFETIME_S * 1000 - EXPIRY_MARGIN_MS;
    }
    return next();
  }
  if (res.statusCode === 400 && json && json.error === 'invalid_grant') {
    events.emit('counter', 'tack.chains_broken', 1);
    v.tackEnded = true;
    return next();
  }
  events.emit('counter', 'tack.unexpected_status', 1);
  return next();
}

/** ifTrue of exchange-search's exchange: no access token yet, or 30 s before it runs out. */
function tackNeedsExchange(vars) {
  return !vars.tackEnded && (!vars.tackAccess || Date.now() >= vars.tackRefreshAt);
}

/** ifTrue of exchange-search's search. */
function tackHasAccess(vars) {
  return !vars.tackEnded && Boolean(vars.tackAccess) && Date.now() < vars.tackRefreshAt;
}

function tackSearchRequest(req, context, events, next) {
  prepare(req, `${join(settings().base, '/api/businesses/search')}`);
  req.headers = { ...req.headers, authorization: `Bearer ${context.vars.tackAccess}`, accept: 'application/json' };
  return next();
}

function tackSearchAnswer(req, res, context, events, next) {
  const v = context.vars;
  if (res.statusCode === 200) {
    const json = parse(res.body);
    const ok = json && Array.isArray(json.items) && ['pageIndex', 'pageSize', 'totalCount'].every((k) => json[k] !== undefined);
    if (!ok) againstSpec(events, 'search_shape');
  } else if (res.statusCode === 401) {
    const ageS = (Date.now() - v.tackIssuedAt) / 1000;
    v.tackAccess = undefined;
    if (ageS < settings().dueS) againstSpec(events, 'young_access_token_401');
    else events.emit('counter', 'tack.expected_401', 1);
  } else events.emit('counter', 'tack.unexpected_status', 1);
  return next();
}

function tackPartnerRequest(req, context, events, next) {
  const s = settings();
  const v = context.vars;
  const refresh = v.tackProfile === 'partner-refresh';
  prepare(req, `${join(s.base, refresh ? '/api/admin/authentication/refresh' : '/api/admin/authentication/token')}`);
  req.headers = { ...req.headers, ...partnerHeaders(), 'content-type': 'application/json', accept: 'application/json' };
  req.body = JSON.stringify(refresh ? { refreshToken: v.tackToken } : { username: v.tackUser });
  return next();
}

function tackPartnerAnswer(req, res, context, events, next) {
  const s = settings();
  const v = context.vars;
  const refreshing = v.tackProfile === 'partner-refresh';
  if (refreshing && (res.statusCode === 400 || res.statusCode === 401)) {
    events.emit('counter', 'tack.chains_broken', 1);
    v.tackEnded = true;
    return next();
  }
  if (res.statusCode < 200 || res.statusCode > 299) {
    events.emit('counter', 'tack.unexpected_status', 1);
    return next();
  }
  const json = parse(res.body);
  const access = findField(json, s.accessField, ACCESS_SPELLINGS);
  const refresh = findField(json, s.refreshField, REFRESH_SPELLINGS);
  if (typeof access !== 'string' || access === '') againstSpec(events, 'no_access_token');
  else if (!refreshing && (typeof refresh !== 'string' || refresh === '')) againstSpec(events, 'no_refresh_token');
  // The spec does not say whether the partner refresh rotates: a new refresh token replaces the chain's, none keeps it.
  if (refreshing && typeof refresh === 'string' && refresh !== '' && refresh !== v.tackToken) {
    v.tackToken = refresh;
    events.emit('counter', 'tack.rotations', 1);
  }
  return next();
}

/** whileTrue of the chain's loop: until the chain ends or the VU's time is up. */
function tackChainGoesOn(context, next) {
  const v = context.vars;
  return next(!v.tackEnded && Date.now() < v.tackUntil);
}

/** onError: a request got no answer (refused, reset, timed out). Artillery ends the VU; tack counts it. */
function tackRequestFailed(error, req, context, events, next) {
  const code = error && (error.code || error.name);
  events.emit('counter', code === 'ETIMEDOUT' ? 'tack.timeouts' : 'tack.transport_errors', 1);
  return next();
}

module.exports = {
  tackSetUp,
  tackExchangeRequest,
  tackExchangeAnswer,
  tackNeedsExchange,
  tackHasAccess,
  tackSearchRequest,
  tackSearchAnswer,
  tackPartnerRequest,
  tackPartnerAnswer,
  tackChainGoesOn,
  tackRequestFailed,
};
