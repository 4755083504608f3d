/**
 * Interoperability with a certified OpenID Connect relying-party library (openid-client 6, on top
 * of oauth4webapi), over real HTTP: the library configures itself from the reference server's
 * discovery document alone, runs the authorization-code flow with PKCE S256 against the sign-in
 * pages, refreshes with rotation, revokes, and reports invalid_grant as the protocol error it is.
 *
 * `*.localhost` does not resolve on every machine, so the library gets a fetch whose undici Agent
 * answers those names with loopback (RFC 6761), as tack's own HTTP client does; every request
 * still carries its real Host, and the reference routes by Host.
 */
import { lookup as dnsLookup } from 'node:dns';
import * as client from 'openid-client';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceServer } from '../../src/reference/index.js';
import { names, search, start } from './helpers.js';
import { PASSWORD, signedIn, submitLogin, urls } from './web-helpers.js';

type Lookup = (
  host: string,
  options: { all?: boolean; family?: number | string },
  cb: (e: Error | null, a: string | { address: string; family: number }[], f?: number) => void,
) => void;

const loopbackForLocalhost: Lookup = (host, options, cb) => {
  if (host === 'localhost' || host.endsWith('.localhost')) {
    if (options.all === true) cb(null, [{ address: '127.0.0.1', family: 4 }]);
    else cb(null, '127.0.0.1', 4);
    return;
  }
  (dnsLookup as unknown as Lookup)(host, options, cb);
};

const agent = new Agent({ connect: { lookup: loopbackForLocalhost as never } });
const localFetch: client.CustomFetch = (url, options) => undiciFetch(url, { ...options, dispatcher: agent } as never) as never;

let server: ReferenceServer;
let config: client.Configuration;

beforeAll(async () => {
  server = await start();
  config = await client.discovery(new URL(server.urls.identity), 'payroll-portal', undefined, client.None(), {
    execute: [client.allowInsecureRequests],
    [client.customFetch]: localFetch,
  });
});

afterAll(async () => {
  await server.close();
  await agent.close();
});

/** The code flow as the token page runs it: openid-client builds the request and redeems the code. */
async function apiTokenThroughLibrary(): Promise<client.TokenEndpointResponse> {
  const browser = await signedIn(server);
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: urls(server).tokenPage,
    scope: 'openid offline_access',
    prompt: 'login',
    state,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  const back = await submitLogin(browser, await browser.open(url.href), PASSWORD);
  return client.authorizationCodeGrant(config, new URL(back.location ?? ''), { pkceCodeVerifier: verifier, expectedState: state });
}

describe('openid-client against the reference server', () => {
  it('configures itself from the discovery document', () => {
    const meta = config.serverMetadata();
    expect(meta.issuer).toBe(server.urls.identity);
    expect(meta.token_endpoint).toBe(`${server.urls.identity}/protocol/openid-connect/token`);
    expect(meta.revocation_endpoint).toBe(`${server.urls.identity}/protocol/openid-connect/revoke`);
    expect(meta.supportsPKCE()).toBe(true);
  });

  it('runs the authorization-code flow with PKCE S256 (checking state and iss) and gets the personal API token', async () => {
    const tokens = await apiTokenThroughLibrary();
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBe(300);
    expect(tokens.refresh_token).toMatch(/^tpat_/);
    expect(names(await search(server, 'acme', tokens.access_token))).toContain('Acme Rockets Ltd');
  });

  it('refreshes with rotation, revokes, and reports invalid_grant', async () => {
    const first = (await apiTokenThroughLibrary()).refresh_token ?? '';
    const refreshed = await client.refreshTokenGrant(config, first);
    expect(refreshed.refresh_token).toMatch(/^tpat_/);
    expect(refreshed.refresh_token).not.toBe(first);
    expect((await search(server, 'acme', refreshed.access_token)).status).toBe(200);
    const again = await client.refreshTokenGrant(config, refreshed.refresh_token ?? '');

    await client.tokenRevocation(config, again.refresh_token ?? '', { token_type_hint: 'refresh_token' });
    const revoked = await client.refreshTokenGrant(config, again.refresh_token ?? '').catch((e: unknown) => e);
    expect(revoked).toBeInstanceOf(client.ResponseBodyError);
    expect((revoked as client.ResponseBodyError).error).toBe('invalid_grant');
    expect((revoked as client.ResponseBodyError).status).toBe(400);

    const garbage = await client.refreshTokenGrant(config, 'tpat_never-issued').catch((e: unknown) => e);
    expect((garbage as client.ResponseBodyError).error).toBe('invalid_grant');
  });
});
