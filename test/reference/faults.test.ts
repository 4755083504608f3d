/**
 * Fault injection: every catalog rule has a fault, every fault names real rules, and each fault is
 * observable: a small probe sees the deviation on a server started with that fault and not on a
 * clean one.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withFaultTable } from '../../src/reference/fault-table.js';
import { FAULTS, type FaultName } from '../../src/reference/faults.js';
import type { ReferenceServer } from '../../src/reference/index.js';
import { isRuleId, SERVER_RULES } from '../../src/rules/catalog.js';
import {
  ALICE,
  BOB,
  CASEY,
  DANA,
  DAY_SECONDS,
  advance,
  apiToken,
  call,
  exchange,
  hook,
  mint,
  names,
  partnerKey,
  revoke,
  search,
  signIn,
  start,
} from './helpers.js';
import { generateThroughPage, generateUrl, pkce, signedIn, urls } from './web-helpers.js';

type Probe = (s: ReferenceServer) => Promise<boolean>;

const TOKEN = '/api/admin/authentication/token';
const REFRESH = '/api/admin/authentication/refresh';
const USERS = '/api/admin/users';

const mintWith = (s: ReferenceServer, headers: Record<string, string>, username = ALICE, tenant = 'acme') =>
  call(s, tenant, 'POST', TOKEN, { headers, json: { username } });
const createUser = (s: ReferenceServer, json: unknown) => call(s, 'acme', 'POST', USERS, { headers: partnerKey(s), json });
const exchangeBody = async (s: ReferenceServer) => (await exchange(s, await apiToken(s))).json();

const resetAlice = (s: ReferenceServer) => call(s, 'acme', 'POST', `/api/admin/users/${encodeURIComponent(ALICE)}/reset-password`, { headers: partnerKey(s) });

/** The settings the token page's script runs with, as alice sees them. */
const pageSettings = async (s: ReferenceServer): Promise<Record<string, unknown> & { messages: Record<string, string> }> => {
  const page = await (await signedIn(s)).open(urls(s).tokenPage);
  return JSON.parse(/<script type="application\/json" id="api-token-settings">(.*?)<\/script>/s.exec(page.text)?.[1] ?? '{}');
};

/**
 * Exchanges of one token sent at once (3 tries, for the store's window to open), then each token
 * returned tried: the most answers with a token, and the most of those tokens still alive, in a try.
 */
const overlap = async (s: ReferenceServer, width = 8, rotated = false): Promise<{ returned: number; alive: number }> => {
  const most = { returned: 0, alive: 0 };
  for (let attempt = 0; attempt < 3; attempt++) {
    let token = await apiToken(s);
    if (rotated) token = (await exchange(s, token)).json()['refresh_token'] as string;
    const answers = await Promise.all(Array.from({ length: width }, () => exchange(s, token)));
    const returned = answers.filter((a) => a.status === 200).map((a) => a.json()['refresh_token'] as string);
    let alive = 0;
    for (const next of returned) if ((await exchange(s, next)).status === 200) alive++;
    most.returned = Math.max(most.returned, returned.length);
    most.alive = Math.max(most.alive, alive);
  }
  return most;
};

/** Each probe answers: does this server deviate from the spec in the fault's way? */
const PROBES: Record<FaultName, Probe> = {
  'missing-partner-headers-accepted': async (s) => (await mintWith(s, {})).status === 200,
  'partner-secret-ignored': async (s) => (await mintWith(s, { 'Tenant-Key-1': 'acme-partner', 'Tenant-Key-2': 'wrong' })).status === 200,
  'partner-secret-prefix-match': async (s) =>
    (await mintWith(s, { 'Tenant-Key-1': 'acme-partner', 'Tenant-Key-2': (s.env['TACK_PARTNER_SECRET'] ?? '').slice(0, 8) })).status === 200,
  'partner-other-tenant-key-accepted': async (s) => (await mintWith(s, partnerKey(s, 'globex'), CASEY)).status === 200,
  'partner-key-checked-on-mint-only': async (s) =>
    (await createUser(s, { email: 'k1@acme.example', firstName: 'K', lastName: 'One' })).status === 201 &&
    (await call(s, 'acme', 'POST', USERS, { json: { email: 'k2@acme.example', firstName: 'K', lastName: 'Two' } })).status === 201,
  'partner-refresh-any-tenant-key': async (s) =>
    (await call(s, 'acme', 'POST', REFRESH, { headers: partnerKey(s, 'globex'), json: { refreshToken: (await mint(s, ALICE)).refreshToken } })).status === 200,
  'partner-header-names-case-sensitive': async (s) =>
    (await mintWith(s, { 'tenant-key-1': 'acme-partner', 'tenant-key-2': s.env['TACK_PARTNER_SECRET'] ?? '' })).status !== 200,
  'partner-header-any-name': async (s) => (await mintWith(s, { 'X-Id': 'acme-partner', 'X-Secret': s.env['TACK_PARTNER_SECRET'] ?? '' })).status === 200,
  'partner-mint-omits-refresh-token': async (s) => !('refreshToken' in (await mintWith(s, partnerKey(s))).json()),
  'partner-mint-non-member': async (s) => (await mintWith(s, partnerKey(s), BOB)).status === 200,
  'partner-token-forbidden': async (s) => (await search(s, 'acme', (await mint(s, ALICE)).accessToken)).status === 403,
  'partner-narrowing-fails-500': async (s) => (await mintWith(s, partnerKey(s), CASEY)).status === 500,
  'partner-token-not-narrowed': async (s) => (await search(s, 'globex', (await mint(s, CASEY)).accessToken)).status === 200,
  'partner-token-admin-permissions': async (s) => names(await search(s, 'acme', (await mint(s, CASEY)).accessToken)).length > 1,
  'partner-refresh-issues-expired-token': async (s) => {
    const reply = await call(s, 'acme', 'POST', REFRESH, { headers: partnerKey(s), json: { refreshToken: (await mint(s, ALICE)).refreshToken } });
    return (await search(s, 'acme', reply.json<{ accessToken: string }>().accessToken)).status === 401;
  },
  'partner-refresh-without-headers': async (s) =>
    (await call(s, 'acme', 'POST', REFRESH, { json: { refreshToken: (await mint(s, ALICE)).refreshToken } })).status === 200,
  'partner-refresh-cross-tenant': async (s) =>
    (await call(s, 'globex', 'POST', REFRESH, { headers: partnerKey(s, 'globex'), json: { refreshToken: (await mint(s, CASEY)).refreshToken } })).status ===
    200,
  'create-user-returns-200': async (s) => (await createUser(s, { email: 'p1@acme.example', firstName: 'P', lastName: 'One' })).status === 200,
  'create-user-rejects-optional-fields': async (s) =>
    (await createUser(s, { email: 'p2@acme.example', firstName: 'P', lastName: 'Two', displayName: 'P2' })).status === 400,
  'duplicate-user-accepted': async (s) => (await createUser(s, { email: ALICE, firstName: 'A', lastName: 'A' })).status !== 409,
  'create-user-fields-unchecked': async (s) => (await createUser(s, { email: 'p3@acme.example', firstName: 3 })).status < 300,
  'timezone-not-validated': async (s) =>
    (await createUser(s, { email: 'p4@acme.example', firstName: 'P', lastName: 'Four', timeZone: 'Mars/Base' })).status === 201,
  'reset-url-relative': async (s) => {
    const reply = await call(s, 'acme', 'POST', `/api/admin/users/${encodeURIComponent(ALICE)}/reset-password`, { headers: partnerKey(s) });
    return !reply.json<{ actionUrl: string }>().actionUrl.startsWith('http://');
  },
  'reset-url-relative-beside-link': async (s) => {
    const reply = await call(s, 'acme', 'POST', `/api/admin/users/${encodeURIComponent(ALICE)}/reset-password`, { headers: partnerKey(s) });
    const body = reply.json<{ actionUrl: string; help?: string }>();
    return !body.actionUrl.startsWith('http://') && body.help !== undefined;
  },
  'reset-url-self-link-only': async (s) => {
    const reply = await call(s, 'acme', 'POST', `/api/admin/users/${encodeURIComponent(ALICE)}/reset-password`, { headers: partnerKey(s) });
    const body = reply.json<{ actionUrl?: string; _links?: { self?: { href?: string } } }>();
    return body.actionUrl === undefined && body._links?.self?.href?.endsWith('/reset-password') === true;
  },
  'reset-url-user-link-only': async (s) => {
    const body = (await resetAlice(s)).json<Record<string, string>>();
    return body['actionUrl'] === undefined && body['user']?.includes('/api/admin/users/') === true;
  },
  'reset-url-hal-user-link-only': async (s) => {
    const body = (await resetAlice(s)).json<{ actionUrl?: string; _links?: { user?: { href?: string } } }>();
    return body.actionUrl === undefined && body._links?.user?.href?.includes('/api/admin/users/') === true;
  },
  'reset-url-help-link-only': async (s) => {
    const body = (await resetAlice(s)).json<Record<string, string>>();
    return body['actionUrl'] === undefined && body['help'] !== undefined;
  },
  'reset-url-schema-link-only': async (s) => {
    const body = (await resetAlice(s)).json<Record<string, string>>();
    return body['actionUrl'] === undefined && body['$schema'] !== undefined;
  },
  'reset-url-hal-reset-link': async (s) => {
    const body = (await resetAlice(s)).json<{ _links?: { reset?: { href?: string } } }>();
    return body._links?.reset?.href?.startsWith('http://') === true;
  },
  'problem-body-not-json': async (s) => {
    const reply = await mintWith(s, {});
    return reply.headers['content-type'] === 'application/problem+json' && !reply.text.startsWith('{');
  },
  'errors-as-plain-json': async (s) => (await mintWith(s, {})).headers['content-type'] === 'application/json',
  'problem-status-mismatch': async (s) => (await mintWith(s, {})).json<{ status: number }>().status !== 401,
  'exchange-expires-in-string': async (s) => (await exchangeBody(s))['expires_in'] !== 300,
  'exchange-token-type-wrong': async (s) => (await exchangeBody(s))['token_type'] !== 'Bearer',
  'exchange-omits-refresh-token': async (s) => !('refresh_token' in (await exchangeBody(s))),
  'rotation-same-token': async (s) => {
    const token = await apiToken(s);
    return (await exchange(s, token)).json()['refresh_token'] === token;
  },
  'rotation-unsafe-under-concurrency': async (s) => {
    const tokens = await Promise.all(Array.from({ length: 10 }, () => apiToken(s)));
    const sequential = await exchange(s, await apiToken(s));
    const concurrent = await Promise.all(tokens.map((t) => exchange(s, t)));
    if (sequential.status !== 200 || concurrent.some((r) => r.status !== 200)) return sequential.status === 200;
    // Every answer was 200, but the chains were crossed: some returned token no longer exchanges.
    const next = await Promise.all(concurrent.map((r) => exchange(s, r.json()['refresh_token'] as string)));
    return next.some((r) => r.status !== 200);
  },
  // One at a time, the reference's grace leaves one token returned alive; reuse detection lets one exchange return a token.
  'rotation-forks-under-overlap': async (s) => (await overlap(s)).alive > 1,
  'reuse-detection-bypassed-by-overlap': async (s) => {
    const token = await apiToken(s);
    await exchange(s, token);
    return (await exchange(s, token)).status === 400 && (await overlap(s)).returned > 1;
  },
  'rotation-forks-rotated-tokens-only': async (s) => (await overlap(s)).alive <= 1 && (await overlap(s, 8, true)).alive > 1,
  'rotation-forks-two-overlapping-only': async (s) => (await overlap(s)).alive <= 1 && (await overlap(s, 2)).alive > 1,
  'rotation-coalesces-keeps-presented': async (s) => {
    const token = await apiToken(s);
    const answers = await Promise.all(Array.from({ length: 4 }, () => exchange(s, token)));
    const returned = new Set(answers.map((a) => a.json()['refresh_token']));
    return returned.size === 1 && (await exchange(s, token)).status === 200;
  },
  'rotation-locked-per-token': async (s) => {
    const token = await apiToken(s);
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 4 }, () => exchange(s, token)));
    // One at a time through the store's delay: the four take four delays at least.
    return s.storeDelayMs > 0 && performance.now() - started >= 4 * s.storeDelayMs && answers.every((a) => a.status === 200);
  },
  'rotation-reuse-once': async (s) => {
    const token = await apiToken(s);
    const first = (await exchange(s, token)).json()['refresh_token'] as string;
    const [again, third] = [await exchange(s, token), await exchange(s, token)];
    return again.status === 200 && third.status === 400 && (await exchange(s, first)).status === 200;
  },
  'rotation-reuse-ends-chain': async (s) => {
    const token = await apiToken(s);
    const next = (await exchange(s, token)).json()['refresh_token'] as string;
    return (await exchange(s, token)).status === 400 && (await exchange(s, next)).status === 400;
  },
  'revoke-no-op': async (s) => {
    const token = await apiToken(s);
    await revoke(s, token);
    return (await exchange(s, token)).status === 200;
  },
  'revoke-answers-with-body': async (s) => (await revoke(s, await apiToken(s))).text !== '',
  'garbage-token-exchanges': async (s) => (await exchange(s, 'never-issued')).status === 200,
  'garbage-token-unauthorized': async (s) => (await exchange(s, 'never-issued')).status === 401,
  'exchange-ignores-client-id': async (s) => (await exchange(s, await apiToken(s), { client_id: 'someone-else' })).status === 200,
  'exchange-foreign-client-revokes': async (s) => {
    const token = await apiToken(s);
    await exchange(s, token, { client_id: 'someone-else' });
    return (await exchange(s, token)).status === 400;
  },
  'idle-limit-31-days': async (s) => {
    const token = await apiToken(s);
    await advance(s, 30 * DAY_SECONDS);
    return (await exchange(s, token)).status === 200;
  },
  'idle-limit-29-days': async (s) => {
    const token = await apiToken(s);
    await advance(s, 29 * DAY_SECONDS + 3600);
    return (await exchange(s, token)).status !== 200;
  },
  'absolute-limit-89-days': async (s) => {
    let token = await apiToken(s);
    for (let i = 0; i < 4; i++) {
      await advance(s, i < 3 ? 25 * DAY_SECONDS : 14 * DAY_SECONDS + 3600);
      const reply = await exchange(s, token);
      if (reply.status !== 200) return i === 3;
      token = reply.json()['refresh_token'] as string;
    }
    return false;
  },
  'idle-limit-not-reset': async (s) => {
    const token = await apiToken(s);
    await advance(s, 20 * DAY_SECONDS);
    const next = (await exchange(s, token)).json()['refresh_token'] as string;
    await advance(s, 20 * DAY_SECONDS);
    return (await exchange(s, next)).status !== 200;
  },
  'absolute-limit-sliding': async (s) => {
    let token = await apiToken(s);
    for (let i = 0; i < 5; i++) {
      await advance(s, 20 * DAY_SECONDS);
      const reply = await exchange(s, token);
      if (reply.status !== 200) return false;
      token = reply.json()['refresh_token'] as string;
    }
    return true;
  },
  'disabled-user-exchanges': async (s) => {
    const token = await apiToken(s);
    await hook(s, 'POST', `/users/${encodeURIComponent(ALICE)}/disable`, {});
    return (await exchange(s, token)).status === 200;
  },
  'cors-open': async (s) => {
    const reply = await call(s, 'id', 'OPTIONS', '/realms/payroll/protocol/openid-connect/token', {
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    return reply.status < 300 && reply.headers['access-control-allow-origin'] === '*';
  },
  'cors-on-success-only': async (s) => {
    const reply = await call(s, 'id', 'POST', '/realms/payroll/protocol/openid-connect/token', {
      headers: { origin: 'https://evil.example' },
      form: { grant_type: 'refresh_token', client_id: 'payroll-portal', refresh_token: await apiToken(s) },
    });
    return reply.status === 200 && reply.headers['access-control-allow-origin'] === 'https://evil.example';
  },
  'cors-preflight-granted-request-refused': async (s) => {
    const origin = 'https://evil.example';
    const pre = await call(s, 'id', 'OPTIONS', '/realms/payroll/protocol/openid-connect/token', {
      headers: { origin, 'access-control-request-method': 'POST' },
    });
    const post = await call(s, 'id', 'POST', '/realms/payroll/protocol/openid-connect/token', {
      headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', client_id: 'payroll-portal', refresh_token: await apiToken(s) }).toString(),
    });
    return pre.headers['access-control-allow-origin'] === origin && post.status === 400 && post.headers['access-control-allow-origin'] === undefined;
  },
  'no-cache-control': async (s) => (await exchange(s, await apiToken(s))).headers['cache-control'] === undefined,
  'feature-flag-ignored': async (s) => {
    await hook(s, 'PUT', '/tenants/acme/features', { apiTokens: false });
    return (await hook(s, 'POST', `/tenants/acme/users/${encodeURIComponent(ALICE)}/api-tokens`, {})).status === 201;
  },
  'embedded-user-gets-token': async (s) => (await hook(s, 'POST', `/tenants/acme/users/${encodeURIComponent(DANA)}/api-tokens`, {})).status === 201,
  'access-token-lives-an-hour': async (s) => {
    const { accessToken } = await signIn(s);
    await advance(s, 301);
    return (await search(s, 'acme', accessToken)).status === 200;
  },
  'access-token-lives-200-seconds': async (s) => {
    const { accessToken } = await signIn(s);
    await advance(s, 250);
    return (await search(s, 'acme', accessToken)).status === 401;
  },
  'access-token-lives-320-seconds': async (s) => {
    const { accessToken } = await signIn(s);
    await advance(s, 315);
    return (await search(s, 'acme', accessToken)).status === 200;
  },
  'access-token-not-required': async (s) => (await search(s, 'acme', undefined)).status === 200,
  'no-www-authenticate': async (s) => (await search(s, 'acme', undefined)).headers['www-authenticate'] === undefined,
  'search-omits-total-count': async (s) => !('totalCount' in (await search(s, 'acme', (await signIn(s)).accessToken)).json()),
  'search-ignores-page-size': async (s) =>
    (await search(s, 'acme', (await signIn(s)).accessToken, '?pageSize=1')).json<{ items: unknown[] }>().items.length > 1,
  'search-leaks-on-later-pages': async (s) =>
    names(await search(s, 'acme', (await signIn(s)).accessToken, '?pageSize=1&pageIndex=1')).includes('Acme Holdings plc'),
  'search-lists-unreadable': async (s) => names(await search(s, 'acme', (await signIn(s)).accessToken)).includes('Acme Secret Labs'),
  'permission-cached-per-token': async (s) => {
    const { accessToken } = await signIn(s);
    const before = (await search(s, 'acme', accessToken)).json<{ items: { id: string; name: string }[] }>().items;
    const anvils = before.find((b) => b.name === 'Acme Anvils Ltd')?.id ?? '';
    await hook(s, 'PUT', `/tenants/acme/businesses/${anvils}/access/${encodeURIComponent(ALICE)}`, { access: 'none' });
    return names(await search(s, 'acme', accessToken)).includes('Acme Anvils Ltd');
  },
  'search-non-member-allowed': async (s) => (await search(s, 'acme', (await signIn(s, BOB, 'globex')).accessToken)).status === 200,
  'search-ignores-host-tenant': async (s) => names(await search(s, 'acme', (await signIn(s, CASEY)).accessToken)).includes('Globex Chemicals'),
  // Paging, shapes, types, time zones, server errors.
  'search-pages-overlap': async (s) => {
    const { accessToken } = await signIn(s);
    const [first, second] = [await search(s, 'acme', accessToken, '?pageSize=2'), await search(s, 'acme', accessToken, '?pageSize=2&pageIndex=1')];
    return names(first).at(-1) === names(second)[0];
  },
  'search-total-varies-by-page': async (s) => {
    const { accessToken } = await signIn(s);
    const [first, second] = [await search(s, 'acme', accessToken, '?pageSize=1'), await search(s, 'acme', accessToken, '?pageSize=1&pageIndex=1')];
    return second.json()['totalCount'] === (first.json()['totalCount'] as number) - 1;
  },
  'search-page-index-constant': async (s) => {
    const { accessToken } = await signIn(s);
    const [first, second] = [await search(s, 'acme', accessToken, '?pageSize=1'), await search(s, 'acme', accessToken, '?pageSize=1&pageIndex=1')];
    return second.json()['pageIndex'] === 0 && names(first)[0] !== names(second)[0];
  },
  'search-pages-start-late': async (s) => {
    const { accessToken } = await signIn(s);
    const second = (await search(s, 'acme', accessToken, '?pageSize=2&pageIndex=1')).json<{ items: unknown[]; totalCount: number }>();
    return second.items.length === 0 && second.totalCount > 2;
  },
  'search-offset-is-page-index': async (s) => {
    const { accessToken } = await signIn(s);
    const [first, second] = [await search(s, 'acme', accessToken, '?pageSize=2'), await search(s, 'acme', accessToken, '?pageSize=2&pageIndex=1')];
    return names(first)[1] === names(second)[0];
  },
  'optional-field-types-unchecked': async (s) =>
    (await createUser(s, { email: 'typed@acme.example', firstName: 'T', lastName: 'Yped', displayName: 42 })).status === 201,
  'timezone-runtime-list-only': async (s) =>
    (await createUser(s, { email: 'kolkata@acme.example', firstName: 'K', lastName: 'Olkata', timeZone: 'Asia/Kolkata' })).status === 400,
  'reset-url-for-non-members': async (s) =>
    (await call(s, 'acme', 'POST', `/api/admin/users/${encodeURIComponent(BOB)}/reset-password`, { headers: partnerKey(s) })).status === 200,
  'partner-refresh-unknown-token-500': async (s) =>
    (await call(s, 'acme', 'POST', REFRESH, { headers: partnerKey(s), json: { refreshToken: 'never-issued' } })).status === 500,
  'gateway-503-retry-after': async (s) => {
    const first = await mintWith(s, partnerKey(s));
    return first.status === 503 && first.headers['retry-after'] === '1' && (await mintWith(s, partnerKey(s))).status === 200;
  },
  'partner-refresh-unknown-token-503': async (s) => {
    const res = await call(s, 'acme', 'POST', REFRESH, { headers: partnerKey(s), json: { refreshToken: 'never-issued' } });
    return res.status === 503 && res.headers['retry-after'] === undefined;
  },
  'partner-refresh-unknown-token-503-retry-forever': async (s) => {
    const again = () => call(s, 'acme', 'POST', REFRESH, { headers: partnerKey(s), json: { refreshToken: 'never-issued' } });
    const [a, b] = [await again(), await again()];
    return a.status === 503 && b.status === 503 && b.headers['retry-after'] === '0';
  },
  'lenient-json-unknown-user-401': async (s) =>
    (await call(s, 'acme', 'POST', TOKEN, { headers: { ...partnerKey(s), 'content-type': 'text/plain' }, body: JSON.stringify({ username: ALICE }) }))
      .status === 200 && (await call(s, 'acme', 'POST', TOKEN, { headers: partnerKey(s), json: { username: 'nobody@example.com' } })).status === 401,
  'partner-content-type-401': async (s) =>
    (await call(s, 'acme', 'POST', TOKEN, { headers: { ...partnerKey(s), 'content-type': 'text/plain' }, body: JSON.stringify({ username: ALICE }) }))
      .status === 401,
  'exchange-grant-type-500': async (s) =>
    (await call(s, 'id', 'POST', '/realms/payroll/protocol/openid-connect/token', { form: { client_id: 'payroll-portal', refresh_token: 'x' } })).status ===
    500,
  'search-bad-paging-500': async (s) => (await search(s, 'acme', (await signIn(s)).accessToken, '?pageSize=ten')).status === 500,
  'partner-search-page-index-string': async (s) => typeof (await search(s, 'acme', (await mint(s, ALICE)).accessToken)).json()['pageIndex'] === 'string',
  'token-page-no-reauth': async (s) => (await (await signedIn(s)).open(generateUrl(s, 'st', pkce().challenge))).status === 302,
  'token-page-reauth-shows-no-user': async (s) => {
    const text = (await (await signedIn(s)).open(generateUrl(s, 'st', pkce().challenge))).text;
    return /name="username"[^>]*value=""/.test(text) && !text.includes('data-testid="signed-in-user"');
  },
  'token-page-other-user': async (s) => {
    const token = (await generateThroughPage(await signedIn(s))).json<{ refresh_token: string }>().refresh_token;
    return !names(await search(s, 'acme', (await exchange(s, token)).json<{ access_token: string }>().access_token)).includes('Acme Rockets Ltd');
  },
  'token-page-shown-on-reload': async (s) => (await pageSettings(s))['keepOnReload'] === true,
  'token-page-unmasked': async (s) => (await pageSettings(s))['mask'] === false,
  'token-page-countdown-from-1-00': async (s) => (await pageSettings(s))['displaySeconds'] !== 120,
  'token-page-not-cleared': async (s) => (await pageSettings(s))['clearAtZero'] === false,
  'token-page-cleared-early': async (s) => (await pageSettings(s))['clearAfterSeconds'] === 60,
  'token-page-revokes-cleared-token': async (s) => (await pageSettings(s))['revokeOnClear'] === true,
  'token-page-copy-truncated': async (s) => (await pageSettings(s))['copyWhole'] === false,
  'token-page-copy-failure-ignored': async (s) =>
    (await pageSettings(s)).messages['copyBlocked'] !== "Couldn't copy the token. Select it and copy it manually.",
  'token-page-unreachable-wrong-text': async (s) => (await pageSettings(s)).messages['signinUnreachable'] !== "Couldn't start API token generation. Try again.",
  'token-page-cancel-wrong-text': async (s) => (await pageSettings(s)).messages['cancelled'] !== 'API token generation was cancelled.',
  'token-page-no-token-wrong-text': async (s) => (await pageSettings(s)).messages['noToken'] !== 'The API token could not be generated.',
  'token-page-offline-access-ignored': async (s) =>
    'refresh_token' in (await generateThroughPage(await signedIn(s), undefined, undefined, { scope: 'openid' })).json(),
  'token-page-server-side': async (s) => (await pageSettings(s))['serverSide'] !== undefined,
  'token-page-feature-off-shown': async (s) => {
    const browser = await signedIn(s);
    await hook(s, 'PUT', '/tenants/acme/features', { apiTokens: false });
    return (await browser.open(urls(s).tokenPage)).status === 200;
  },
  'token-page-lists-tokens': async (s) => {
    const browser = await signedIn(s);
    await generateThroughPage(browser);
    return /<button[^>]*>Revoke<\/button>/.test((await browser.open(urls(s).tokenPage)).text);
  },
};

describe('the fault catalog', () => {
  it('has at least one fault for every server rule of src/rules/catalog.ts (client rules have faulty clients: test/client)', () => {
    const broken = new Set<string>(FAULTS.flatMap((f) => f.rules));
    expect(SERVER_RULES.map((r) => r.id).filter((id) => !broken.has(id))).toEqual([]);
  });

  it('names only catalog rules, with unique kebab-case names and a description', () => {
    expect(new Set(FAULTS.map((f) => f.name)).size).toBe(FAULTS.length);
    for (const fault of FAULTS) {
      expect(fault.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(fault.rules.length > 0 || fault.conformant === true).toBe(true);
      expect(fault.rules.every((id) => isRuleId(id))).toBe(true);
      expect(fault.description.length).toBeGreaterThan(10);
    }
  });

  it('refuses an unknown fault, naming it and listing the valid ones', async () => {
    await expect(start({ faults: ['revoke-no-op', 'no-such-fault'] })).rejects.toThrow(/Unknown fault: no-such-fault\. Valid faults: .*revoke-no-op/);
  });

  it('is documented in docs/reference-server.md, as generated from the catalog (npm run docs)', () => {
    const doc = readFileSync(new URL('../../docs/reference-server.md', import.meta.url), 'utf8');
    expect(doc, 'the fault table is out of date: run npm run docs').toBe(withFaultTable(doc));
  });

  it('has a probe for every fault', () => {
    expect(Object.keys(PROBES).sort()).toEqual(FAULTS.map((f) => f.name).sort());
  });
});

describe.each(FAULTS.map((f) => [f.name, f.rules.join(', ')] as const))('fault %s (breaks %s)', (name) => {
  it('is observable with the fault and absent without it', async () => {
    const probe = PROBES[name as FaultName];
    const faulty = await start({ faults: [name] });
    const clean = await start();
    try {
      expect(faulty.faults).toEqual([name]);
      expect(await probe(faulty)).toBe(true);
      expect(await probe(clean)).toBe(false);
    } finally {
      await Promise.all([faulty.close(), clean.close()]);
    }
  });
});
