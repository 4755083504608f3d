/**
 * Access with a personal API token (spec §5), on a certified OpenID Connect library (openid-client
 * 6) set up the standard way: discovery at the sign-in server's URL, the public client
 * `payroll-portal` (no secret), then the API token redeemed as a refresh token. The library sends
 * the exchange as the spec writes it (form-encoded, grant_type=refresh_token, client_id). The
 * replacement API token it returns is stored over the old one before going on, and the access
 * token is kept while it is valid. invalid_grant means the token is expired or revoked: stop,
 * never retry.
 */
import * as oidc from 'openid-client';
import { type AccessToken, accessToken, type TokenSource, usable } from './access-token.js';
import { failed, tokenDead } from './errors.js';
import { log, protect } from './log.js';
import type { TokenFile } from './token-file.js';

const CLIENT_ID = 'payroll-portal';

export class PersonalToken implements TokenSource {
  private held: AccessToken | undefined;
  private config: oidc.Configuration | undefined;

  constructor(
    private readonly identityUrl: string,
    private readonly store: TokenFile,
  ) {}

  async current(): Promise<string> {
    return usable(this.held) ? this.held.value : this.renew();
  }

  async renew(): Promise<string> {
    const config = await this.configuration();
    let answer: oidc.TokenEndpointResponse;
    try {
      answer = await oidc.refreshTokenGrant(config, this.store.read());
    } catch (error) {
      if (error instanceof oidc.ResponseBodyError && error.error === 'invalid_grant') throw tokenDead();
      throw failed('the token exchange', error instanceof oidc.ResponseBodyError ? error.status : 0);
    }
    protect(answer.access_token);
    protect(answer.refresh_token);
    // The old API token is dead from now on: the replacement is stored before anything else.
    if (answer.refresh_token !== undefined) this.store.replace(answer.refresh_token);
    this.held = accessToken(answer.access_token, answer.expires_in);
    log('exchanged the API token for an access token; the replacement API token is stored');
    return this.held.value;
  }

  /** The sign-in server as its discovery document describes it (fetched once per run). */
  private async configuration(): Promise<oidc.Configuration> {
    if (this.config !== undefined) return this.config;
    const url = new URL(this.identityUrl);
    // Plain HTTP only for a server on this machine (a sandbox, tack client); anything else must be HTTPS.
    const local = url.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
    try {
      this.config = await oidc.discovery(url, CLIENT_ID, undefined, oidc.None(), { execute: local ? [oidc.allowInsecureRequests] : [] });
    } catch (error) {
      log(`the sign-in server's discovery failed: ${error instanceof Error ? error.message : 'unexpected error'}`);
      throw failed('the sign-in server discovery', 0);
    }
    return this.config;
  }
}
