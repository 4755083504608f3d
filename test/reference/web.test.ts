/**
 * The web interface of the reference server over real HTTP (token-page.md): discovery,
 * the sign-in pages (OpenID Connect code flow with PKCE S256), the tenant host's account and token
 * pages, the authorization_code grant and its CORS exception, and users' passwords through the hook.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceServer } from '../../src/reference/index.js';
import { advance, ALICE, call, DAY_SECONDS, exchange, hook, names, revoke, search, start } from './helpers.js';
import {
  Browser,
  createUserWithPassword,
  field,
  generateThroughPage,
  generateUrl,
  PASSWORD,
  pkce,
  serverSideGeneration,
  signedIn,
  submitLogin,
  urls,
} from './web-helpers.js';

let server: ReferenceServer;
beforeAll(async () => {
  server = await start();
});
afterAll(() => server.close());

const redeem = (browser: Browser, code: string, verifier: string, redirectUri = urls(server).tokenPage, headers: Record<string, string> = {}) =>
  browser.open(urls(server).token, {
    form: { grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: 'payroll-portal', code_verifier: verifier },
    headers,
  });

describe('OpenID discovery', () => {
  it('serves the provider metadata at {identity}/.well-known/openid-configuration, as Keycloak does', async () => {
    const reply = await call(server, 'id', 'GET', '/realms/payroll/.well-known/openid-configuration');
    expect(reply.status).toBe(200);
    const meta = reply.json();
    const issuer = server.urls.identity;
    expect(meta).toMatchObject({
      issuer,
      authorization_endpoint: `${issuer}/protocol/openid-connect/auth`,
      token_endpoint: `${issuer}/protocol/openid-connect/token`,
      revocation_endpoint: `${issuer}/protocol/openid-connect/revoke`,
      grant_types_supported: ['authorization_code', 'refresh_token'],
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
    });
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('signing in at the tenant host (contract steps 1-2)', () => {
  it('sends a browser without a session to the authorization endpoint with PKCE S256, and back to the page after the password', async () => {
    const browser = new Browser(server);
    const first = await browser.open(urls(server).tokenPage);
    expect(first.status).toBe(302);
    const auth = new URL(first.location ?? '');
    expect(auth.origin + auth.pathname).toBe(urls(server).auth);
    expect(Object.fromEntries(auth.searchParams)).toMatchObject({
      client_id: 'payroll-portal',
      redirect_uri: urls(server).callback,
      response_type: 'code',
      scope: 'openid',
      code_challenge_method: 'S256',
    });
    expect(auth.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(auth.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(first.headers['set-cookie']).toMatch(/^tack_login=weblogin\.[^;]+; Path=\/account; HttpOnly; SameSite=Lax/);

    const form = await browser.open(auth.href);
    expect(form.status).toBe(200);
    expect(form.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(form.headers['cache-control']).toBe('no-store');
    expect(form.text).toContain('<label for="username">Username or email</label>');
    expect(form.text).toContain('type="password"');
    expect(form.text).toMatch(/<button type="submit"[^>]*>Sign in<\/button>[\s\S]*<button type="submit"[^>]*>Cancel<\/button>/);

    for (const [username, password] of [
      [ALICE, 'wrong'],
      ['nobody@acme.example', PASSWORD],
      [ALICE, ''],
    ]) {
      const refused = await submitLogin(browser, form, password!, username);
      expect(refused.status).toBe(200);
      expect(refused.location).toBeUndefined();
      expect(refused.text).toContain('Invalid username or password.');
      expect(refused.text).not.toContain(password === '' ? 'never-empty' : password!);
    }

    const back = await submitLogin(browser, form, PASSWORD, 'ALICE@acme.example');
    expect(back.status).toBe(302);
    const callback = new URL(back.location ?? '');
    expect(callback.origin + callback.pathname).toBe(urls(server).callback);
    expect(callback.searchParams.get('state')).toBe(auth.searchParams.get('state'));
    expect(callback.searchParams.get('code')).toMatch(/^ac1\./);
    expect(callback.searchParams.get('iss')).toBe(server.urls.identity);
    expect(back.headers['set-cookie']).toMatch(/^tack_signin=idsess\.[^;]+; Path=\/realms\/payroll; HttpOnly; SameSite=Lax/);

    const session = await browser.open(callback.href);
    expect(session.status).toBe(302);
    expect(session.location).toBe(urls(server).tokenPage);
    expect(session.headers['set-cookie']).toMatch(/tack_session=websess\.[^;]+; Path=\/; HttpOnly; SameSite=Lax/);
    expect((await browser.open(callback.href)).status).toBe(400); // the login cookie is used up

    const page = await browser.open(urls(server).tokenPage);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<button type="button" id="generate-token">Generate token<\/button>/);
  });

  it('shows the account details page with name, e-mail and the API tokens entry under Account', async () => {
    const browser = await signedIn(server);
    const page = await browser.open(urls(server).account);
    expect(page.text).toContain('<dd data-testid="account-name">Alice Archer</dd>');
    expect(page.text).toContain('<dd data-testid="account-email">alice@acme.example</dd>');
    expect(page.text).toMatch(/<nav aria-label="Account menu">\s*<h2>Account<\/h2>[\s\S]*<a href="\/account\/api-tokens">API tokens<\/a>/);
    expect(page.headers['content-security-policy']).toMatch(/script-src 'nonce-[\w-]+'/);
  });

  it('does not take a session of one tenant host at another, or a forged one', async () => {
    const browser = await signedIn(server);
    const session = browser.cookies('acme.localhost').get('tack_session') ?? '';
    const atGlobex = await call(server, 'globex', 'GET', '/account', { headers: { cookie: `tack_session=${session}` } });
    expect(atGlobex.status).toBe(302);
    const forged = await call(server, 'acme', 'GET', '/account', { headers: { cookie: `tack_session=${session.slice(0, -2)}xx` } });
    expect(forged.status).toBe(302);
  });

  it('refuses a callback without its login cookie or with another state, and says so when sign-in was cancelled', async () => {
    const browser = new Browser(server);
    const first = await browser.open(urls(server).account);
    const state = new URL(first.location ?? '').searchParams.get('state') ?? '';
    expect((await new Browser(server).open(`${urls(server).callback}?code=x&state=${state}`)).status).toBe(400);
    const cancelled = await browser.open(`${urls(server).callback}?error=access_denied&state=${state}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.text).toContain('Sign-in was cancelled');
    await browser.open(urls(server).account);
    expect((await browser.open(`${urls(server).callback}?code=x&state=other`)).status).toBe(400);
  });
});

describe('the authorization endpoint', () => {
  const base = () => ({
    client_id: 'payroll-portal',
    redirect_uri: urls(server).tokenPage,
    response_type: 'code',
    scope: 'openid',
    state: 's1',
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
  });
  const authorize = (params: Record<string, string>, browser = new Browser(server)) =>
    browser.open(`${urls(server).auth}?${new URLSearchParams(params).toString()}`);

  it('answers a bad client or redirect_uri with a page and never redirects there', async () => {
    for (const params of [
      { ...base(), client_id: 'other' },
      { ...base(), redirect_uri: 'https://evil.example/cb' },
      { ...base(), redirect_uri: `${urls(server).acme}/account/other` },
    ]) {
      const reply = await authorize(params);
      expect(reply.status).toBe(400);
      expect(reply.location).toBeUndefined();
      expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
    }
    expect((await new Browser(server).open(`${urls(server).auth}?client_id=payroll-portal&client_id=x`)).status).toBe(400);
  });

  it('sends other refusals back to the client as error=..., with the state', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ ...base(), response_type: 'token' }, 'unsupported_response_type'],
      [{ ...base(), scope: 'profile' }, 'invalid_scope'],
      [{ ...base(), code_challenge_method: 'plain' }, 'invalid_request'],
      [(({ code_challenge: _c, ...rest }) => rest)(base()), 'invalid_request'],
      [{ ...base(), prompt: 'consent' }, 'invalid_request'],
    ];
    for (const [params, error] of cases) {
      const back = new URL((await authorize(params)).location ?? '');
      expect(back.origin + back.pathname).toBe(urls(server).tokenPage);
      expect([back.searchParams.get('error'), back.searchParams.get('state')]).toEqual([error, 's1']);
    }
    const noState = new URL((await authorize((({ state: _s, ...rest }) => rest)(base()))).location ?? '');
    expect(noState.searchParams.get('error')).toBe('invalid_request');
  });

  it('signs a signed-in browser in at once (single sign-on) and answers prompt=none', async () => {
    const browser = await signedIn(server);
    const sso = await authorize(base(), browser);
    expect(new URL(sso.location ?? '').searchParams.get('code')).toMatch(/^ac1\./);
    const none = await authorize({ ...base(), prompt: 'none' }, browser);
    expect(new URL(none.location ?? '').searchParams.get('code')).toMatch(/^ac1\./);
    const anonymous = await authorize({ ...base(), prompt: 'none' });
    expect(new URL(anonymous.location ?? '').searchParams.get('error')).toBe('login_required');
  });

  it('TOKEN-PAGE-REAUTH: prompt=login shows the signed-in user and asks for the password only; Cancel returns access_denied', async () => {
    const browser = await signedIn(server);
    const form = await browser.open(generateUrl(server, 'st-9', pkce().challenge));
    expect(form.status).toBe(200);
    expect(form.text).toMatch(/data-testid="signed-in-user"><strong data-testid="signed-in-name">Alice Archer<\/strong><br>/);
    expect(form.text).toMatch(/<span data-testid="signed-in-email">alice@acme\.example<\/span>/);
    expect(form.text).not.toContain('name="username"');
    expect((await submitLogin(browser, form, 'wrong')).text).toContain('Invalid username or password.');
    const cancelled = new URL((await submitLogin(browser, form, '', undefined, 'cancel')).location ?? '');
    expect(cancelled.origin + cancelled.pathname).toBe(urls(server).tokenPage);
    expect(Object.fromEntries(cancelled.searchParams)).toEqual({ error: 'access_denied', state: 'st-9', iss: server.urls.identity });
  });

  it('refuses a sign-in form whose signed request was tampered with or has expired', async () => {
    const browser = new Browser(server);
    const form = await browser.follow(urls(server).account);
    const sealed = field(form.text, 'request');
    const action = `${server.urls.identity}/login-actions/authenticate`;
    const tampered = await browser.open(action, { form: { request: `${sealed.slice(0, -3)}abc`, username: ALICE, password: PASSWORD } });
    expect(tampered.status).toBe(400);
    await advance(server, 31 * 60);
    expect((await browser.open(action, { form: { request: sealed, username: ALICE, password: PASSWORD } })).status).toBe(400);
  });
});

describe('the authorization_code grant', () => {
  it("TOKEN-PAGE-OWNER: a re-authentication's code yields that user's API token, which exchanges, rotates and expires like the hook's", async () => {
    const reply = await generateThroughPage(await signedIn(server));
    expect(reply.status).toBe(200);
    expect(reply.headers['cache-control']).toBe('no-store');
    const body = reply.json<{ access_token: string; refresh_token: string; expires_in: number; token_type: string }>();
    expect(body).toMatchObject({ expires_in: 300, token_type: 'Bearer' });
    expect(body.refresh_token).toMatch(/^tpat_/);
    expect(names(await search(server, 'acme', body.access_token))).toContain('Acme Rockets Ltd');
    const first = await exchange(server, body.refresh_token);
    expect(first.status).toBe(200);
    const rotated = first.json<{ refresh_token: string; access_token: string }>();
    expect(rotated.refresh_token).not.toBe(body.refresh_token);
    expect(names(await search(server, 'acme', rotated.access_token))).toEqual(['Acme Anvils Ltd', 'Acme Rockets Ltd', 'Acme Springs GmbH']);
    await advance(server, 30 * DAY_SECONDS);
    expect((await exchange(server, rotated.refresh_token)).json()['error']).toBe('invalid_grant');
  });

  it('hands out no API token for the code of a sign-in without prompt=login', async () => {
    const browser = await signedIn(server);
    const { verifier, challenge } = pkce();
    const sso = await browser.open(generateUrl(server, 's', challenge, { prompt: 'none' }));
    const reply = await redeem(browser, new URL(sso.location ?? '').searchParams.get('code') ?? '', verifier);
    expect(reply.status).toBe(200);
    expect(reply.json()).not.toHaveProperty('refresh_token');
  });

  it('TOKEN-PAGE-NO-TOKEN: hands out no API token for a re-authentication that did not ask for offline_access', async () => {
    const browser = await signedIn(server);
    const { verifier, challenge } = pkce();
    const back = await submitLogin(browser, await browser.open(generateUrl(server, 's', challenge, { scope: 'openid' })), PASSWORD);
    const reply = await redeem(browser, new URL(back.location ?? '').searchParams.get('code') ?? '', verifier);
    expect(reply.status).toBe(200);
    expect(reply.json()).toMatchObject({ scope: 'openid' });
    expect(reply.json()).not.toHaveProperty('refresh_token');
  });

  it('the server-side token page (token-page-server-side) asks for offline_access, redeems the code itself and hands the page the token', async () => {
    const served = await start({ faults: ['token-page-server-side'] });
    try {
      let asked = '';
      const generated = await serverSideGeneration(served, (url) => {
        asked = new URL(url).searchParams.get('scope') ?? '';
        return url;
      });
      expect(asked).toBe('openid offline_access');
      expect(generated['token']).toMatch(/^tpat_/);
      expect((await exchange(served, generated['token']!)).status).toBe(200);
      // Without offline_access the sign-in completes, and no token comes back.
      expect(await serverSideGeneration(served, (url) => url.replace('offline_access', ''))).toEqual({ message: 'noToken' });
    } finally {
      await served.close();
    }
  });

  it('takes each code once, for its client, redirect_uri and code_verifier, within 60 seconds', async () => {
    const browser = await signedIn(server);
    const codeFor = async (): Promise<{ code: string; verifier: string }> => {
      const { verifier, challenge } = pkce();
      const back = await submitLogin(browser, await browser.open(generateUrl(server, 's', challenge)), PASSWORD);
      return { code: new URL(back.location ?? '').searchParams.get('code') ?? '', verifier };
    };
    const once = await codeFor();
    expect((await redeem(browser, once.code, once.verifier)).status).toBe(200);
    expect((await redeem(browser, once.code, once.verifier)).json()['error']).toBe('invalid_grant');

    const wrongVerifier = await codeFor();
    expect((await redeem(browser, wrongVerifier.code, pkce().verifier)).json()['error']).toBe('invalid_grant');
    expect((await redeem(browser, wrongVerifier.code, wrongVerifier.verifier)).json()['error']).toBe('invalid_grant');

    const wrongRedirect = await codeFor();
    expect((await redeem(browser, wrongRedirect.code, wrongRedirect.verifier, urls(server).callback)).json()['error']).toBe('invalid_grant');

    const late = await codeFor();
    await advance(server, 61);
    expect((await redeem(browser, late.code, late.verifier)).json()['error']).toBe('invalid_grant');
  });

  it("grants CORS to the tenant hosts' own origins for this grant only; foreign origins and the other endpoints get none", async () => {
    const acme = urls(server).acme;
    expect((await generateThroughPage(await signedIn(server), PASSWORD, acme)).headers['access-control-allow-origin']).toBe(acme);
    expect((await generateThroughPage(await signedIn(server), PASSWORD, 'https://evil.example')).headers['access-control-allow-origin']).toBeUndefined();
    const token = (await generateThroughPage(await signedIn(server))).json<{ refresh_token: string }>().refresh_token;
    expect((await exchange(server, token)).headers['access-control-allow-origin']).toBeUndefined();
    const fromPage = await call(server, 'id', 'POST', '/realms/payroll/protocol/openid-connect/token', {
      headers: { origin: acme },
      form: { grant_type: 'refresh_token', client_id: 'payroll-portal', refresh_token: token },
    });
    expect(fromPage.headers['access-control-allow-origin']).toBeUndefined();
    expect((await revoke(server, token)).headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await call(server, 'id', 'OPTIONS', '/realms/payroll/protocol/openid-connect/token', {
      headers: { origin: acme, 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(405);
  });
});

describe('the token page', () => {
  it('holds the Generate button, the exact messages of spec §7 and no token list; the page may fetch from the sign-in server only', async () => {
    const page = await (await signedIn(server)).open(urls(server).tokenPage);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['content-security-policy']).toContain(`connect-src http://id.localhost:${server.port};`);
    const settings = JSON.parse(/<script type="application\/json" id="api-token-settings">(.*?)<\/script>/s.exec(page.text)?.[1] ?? '{}');
    expect(settings).toMatchObject({
      displaySeconds: 120,
      mask: true,
      clearAtZero: true,
      keepOnReload: false,
      revokeOnClear: false,
      copyWhole: true,
      redirectUri: urls(server).tokenPage,
    });
    expect(settings.messages).toMatchObject({
      signinUnreachable: "Couldn't start API token generation. Try again.",
      cancelled: 'API token generation was cancelled.',
      noToken: 'The API token could not be generated.',
      copyBlocked: "Couldn't copy the token. Select it and copy it manually.",
      cleared: "API token cleared from the screen. If you didn't copy it, generate a new one.",
    });
    expect(page.text).toContain('data-testid="api-token"');
    expect(page.text.replace(/<script[\s\S]*?<\/script>/g, '')).not.toMatch(/revoke/i);
  });

  it("TOKEN-PAGE-FEATURE-OFF: redirects to the account details page where the feature is off or the user signs in through a partner's app", async () => {
    const own = await start();
    try {
      const browser = await signedIn(own);
      await hook(own, 'PUT', '/tenants/acme/features', { apiTokens: false });
      const page = await browser.open(urls(own).tokenPage);
      expect([page.status, page.location]).toEqual([302, urls(own).account]);
      expect((await browser.open(urls(own).account)).text).not.toContain('API tokens');
      expect((await generateThroughPage(browser)).json()).not.toHaveProperty('refresh_token');
      await hook(own, 'PUT', '/tenants/acme/features', { apiTokens: true });
      const dana = await signedIn(own, 'dana@acme.example');
      expect((await dana.open(urls(own).tokenPage)).location).toBe(urls(own).account);
    } finally {
      await own.close();
    }
  });
});

describe('passwords through the hook (capability passwords)', () => {
  it('lists the capability and lets a user created with a password sign in; one without a password cannot', async () => {
    expect((await hook(server, 'GET', '/')).json<{ capabilities: string[] }>().capabilities).toContain('passwords');
    await createUserWithPassword(server, 'pat@acme.example', 'pat s3cret ü');
    const browser = await signedIn(server, 'pat@acme.example', 'pat s3cret ü');
    expect((await browser.open(urls(server).account)).text).toContain('pat@acme.example');
    const reply = await hook(server, 'POST', '/tenants/acme/users', { email: 'nopw@acme.example', firstName: 'No', lastName: 'Pw', signIn: 'direct' });
    expect(reply.status).toBe(201);
    await expect(signedIn(server, 'nopw@acme.example', '')).rejects.toThrow(/sign-in failed/);
    for (const password of [42, '', ' ', 'a\u0000b', 'x'.repeat(1025)]) {
      const bad = await hook(server, 'POST', '/tenants/acme/users', { email: 'bad@acme.example', firstName: 'B', lastName: 'P', signIn: 'direct', password });
      expect(bad.status).toBe(400);
    }
  });

  it('ends the sessions of a disabled user and refuses their sign-in', async () => {
    await createUserWithPassword(server, 'gone@acme.example', 'pw-gone');
    const browser = await signedIn(server, 'gone@acme.example', 'pw-gone');
    await hook(server, 'POST', `/users/${encodeURIComponent('gone@acme.example')}/disable`, {});
    expect((await browser.open(urls(server).account)).status).toBe(302);
    await expect(signedIn(server, 'gone@acme.example', 'pw-gone')).rejects.toThrow(/sign-in failed/);
  });
});
