/**
 * A minimal browser for the web pages over real HTTP: absolute `*.localhost` URLs are sent to
 * 127.0.0.1 with the right Host header, cookies are kept per host (Set-Cookie, Max-Age=0 deletes),
 * redirects are returned, not followed, so each step of the sign-in flow can be looked at.
 */
import { createHash, randomBytes } from 'node:crypto';
import { request } from 'undici';
import type { ReferenceServer } from '../../src/reference/index.js';
import { hook, type Reply } from './helpers.js';

export interface Page extends Reply {
  readonly location: string | undefined;
  readonly url: string;
}

export class Browser {
  readonly #jar = new Map<string, Map<string, string>>();

  constructor(readonly server: ReferenceServer) {}

  cookies(host: string): Map<string, string> {
    let jar = this.#jar.get(host);
    if (jar === undefined) {
      jar = new Map();
      this.#jar.set(host, jar);
    }
    return jar;
  }

  async open(url: string, options: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<Page> {
    const target = new URL(url);
    const jar = this.cookies(target.hostname);
    const headers: Record<string, string> = { host: target.host, ...options.headers };
    if (jar.size > 0) headers['cookie'] = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: string | undefined;
    if (options.form !== undefined) {
      body = new URLSearchParams(options.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const response = await request(`http://127.0.0.1:${this.server.port}${target.pathname}${target.search}`, {
      method: (options.method ?? (body === undefined ? 'GET' : 'POST')) as 'GET',
      headers,
      body,
    });
    const text = await response.body.text();
    const setCookie = response.headers['set-cookie'];
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [setCookie]) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      if (/max-age=0/i.test(line)) jar.delete(name);
      else jar.set(name, pair.slice(eq + 1).trim());
    }
    const flat: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
    const location = flat['location'] === undefined ? undefined : new URL(flat['location'], url).href;
    return { status: response.statusCode, headers: flat, text, location, url, json: <T>() => JSON.parse(text) as T };
  }

  /** Follows redirects from `url` until a page answers (at most 10 hops). */
  async follow(url: string): Promise<Page> {
    let page = await this.open(url);
    for (let i = 0; i < 10 && page.location !== undefined; i++) page = await this.open(page.location);
    return page;
  }
}

/** The value of hidden/visible input `name` in an HTML form. */
export function field(html: string, name: string): string {
  const m = new RegExp(`<input[^>]*name="${name}"[^>]*value="([^"]*)"`).exec(html);
  if (m === null) throw new Error(`no field ${name}`);
  return m[1]!
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Submits the sign-in form of `page` (full or re-authentication). */
export function submitLogin(browser: Browser, page: Page, password: string, username?: string, action = 'sign-in'): Promise<Page> {
  const form: Record<string, string> = { request: field(page.text, 'request'), action, password };
  if (username !== undefined) form['username'] = username;
  const formAction = /<form method="post" action="([^"]+)"/.exec(page.text)?.[1] ?? '';
  return browser.open(new URL(formAction, page.url).href, { form });
}

export const PASSWORD = 'tack-reference-password';

export function urls(server: ReferenceServer) {
  const acme = server.urls.tenants['acme']!;
  return {
    acme,
    account: `${acme}/account`,
    tokenPage: `${acme}/account/api-tokens`,
    callback: `${acme}/account/callback`,
    identity: server.urls.identity,
    auth: `${server.urls.identity}/protocol/openid-connect/auth`,
    token: `${server.urls.identity}/protocol/openid-connect/token`,
  };
}

/** Signs `email` in at acme's account page; returns the signed-in browser. */
export async function signedIn(server: ReferenceServer, email = 'alice@acme.example', password = PASSWORD): Promise<Browser> {
  const browser = new Browser(server);
  const form = await browser.follow(urls(server).account);
  const back = await submitLogin(browser, form, password, email);
  if (back.location === undefined) throw new Error(`sign-in failed: ${back.status}`);
  const account = await browser.follow(back.location);
  if (account.status !== 200 || !account.text.includes('Account details')) throw new Error(`sign-in failed: ${account.status}`);
  return browser;
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** What the token page's script does after Generate token: an authorization request with prompt=login. */
export function generateUrl(server: ReferenceServer, state: string, challenge: string, extra: Record<string, string> = {}): string {
  const u = urls(server);
  const params = new URLSearchParams({
    client_id: 'payroll-portal',
    redirect_uri: u.tokenPage,
    response_type: 'code',
    scope: 'openid offline_access',
    prompt: 'login',
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  });
  return `${u.auth}?${params.toString()}`;
}

/** Re-authenticates a signed-in browser as the token page does and redeems the code: the token response. */
export async function generateThroughPage(browser: Browser, password = PASSWORD, origin?: string, extra: Record<string, string> = {}): Promise<Page> {
  const { server } = browser;
  const { verifier, challenge } = pkce();
  const form = await browser.open(generateUrl(server, 'st-1', challenge, extra));
  const back = await submitLogin(browser, form, password);
  const code = new URL(back.location ?? '').searchParams.get('code') ?? '';
  return browser.open(urls(server).token, {
    form: { grant_type: 'authorization_code', code, redirect_uri: urls(server).tokenPage, client_id: 'payroll-portal', code_verifier: verifier },
    headers: origin === undefined ? {} : { origin },
  });
}

/**
 * Generate token on the server-side token page (variant token-page-server-side), as a browser does it:
 * the page's generate path, the sign-in server's form with the password, back to the page, whose
 * settings say what the server's redemption came to. `edit` may change the authorization request.
 */
export async function serverSideGeneration(server: ReferenceServer, edit: (url: string) => string = (url) => url): Promise<Record<string, string>> {
  const browser = await signedIn(server);
  const toSignIn = await browser.open(`${urls(server).tokenPage}/generate`);
  const back = await submitLogin(browser, await browser.open(edit(toSignIn.location ?? '')), PASSWORD);
  const page = await browser.open(back.location ?? '');
  const settings = JSON.parse(/<script type="application\/json" id="api-token-settings">(.*?)<\/script>/s.exec(page.text)?.[1] ?? '{}');
  return (settings as { generated?: Record<string, string> }).generated ?? {};
}

export async function createUserWithPassword(server: ReferenceServer, email: string, password: string, signIn = 'direct', tenant = 'acme'): Promise<void> {
  const reply = await hook(server, 'POST', `/tenants/${tenant}/users`, { email, firstName: 'Pat', lastName: 'Page', signIn, password });
  if (reply.status !== 201) throw new Error(`create user: ${reply.status} ${reply.text}`);
}
