/**
 * Access with a personal API token (spec §5): exchange the stored token at the sign-in server
 * (form-encoded, grant_type=refresh_token, client_id=payroll-portal, no secret), store the
 * replacement it returns over the old one before going on, and keep the access token while it is
 * valid. invalid_grant means the token is expired or revoked: stop, never retry.
 */
import { type AccessToken, accessToken, type TokenSource, usable } from './access-token.js';
import { failed, tokenDead } from './errors.js';
import { log, protect } from './log.js';
import type { TokenFile } from './token-file.js';

const CLIENT_ID = 'payroll-portal';

interface TokenAnswer {
  readonly access_token?: unknown;
  readonly expires_in?: unknown;
  readonly refresh_token?: unknown;
  readonly error?: unknown;
}

export class PersonalToken implements TokenSource {
  private held: AccessToken | undefined;

  constructor(
    private readonly identityUrl: string,
    private readonly store: TokenFile,
  ) {}

  async current(): Promise<string> {
    return usable(this.held) ? this.held.value : this.renew();
  }

  async renew(): Promise<string> {
    const res = await fetch(`${this.identityUrl}/protocol/openid-connect/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', client_id: CLIENT_ID, refresh_token: this.store.read() }),
      signal: AbortSignal.timeout(10_000),
    });
    const answer = (await res.json().catch(() => ({}))) as TokenAnswer;
    if (res.status === 400 && answer.error === 'invalid_grant') throw tokenDead();
    if (!res.ok || typeof answer.access_token !== 'string') throw failed('the token exchange', res.status);
    protect(answer.access_token);
    // The old API token is dead from now on: the replacement is stored before anything else.
    if (typeof answer.refresh_token === 'string') this.store.replace(answer.refresh_token);
    this.held = accessToken(answer.access_token, answer.expires_in);
    log('exchanged the API token for an access token; the replacement API token is stored');
    return this.held.value;
  }
}
