/**
 * Access with the partner key (spec §4.1, §5): both credential headers on every admin call, a JSON
 * mint for the user to act for, and a refresh at the same tenant host with the same headers (a
 * refused refresh falls back to a new mint). The key has no user identity of its own: the tokens
 * carry the user's permissions. The secret stays on this server, never in a browser or an app.
 */
import { type AccessToken, accessToken, type TokenSource, usable } from './access-token.js';
import type { Credentials } from './config.js';
import { failed } from './errors.js';
import { log, protect } from './log.js';

type PartnerKey = Extract<Credentials, { kind: 'partner-key' }>;

export class PartnerKeyAccess implements TokenSource {
  private held: AccessToken | undefined;
  private refreshToken: string | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly key: PartnerKey,
  ) {}

  async current(): Promise<string> {
    return usable(this.held) ? this.held.value : this.renew();
  }

  async renew(): Promise<string> {
    if (this.refreshToken !== undefined) {
      const refreshed = await this.call('/api/admin/authentication/refresh', { refreshToken: this.refreshToken });
      if (refreshed !== undefined) return refreshed;
      log('the refresh was refused; minting a new token for the user');
    }
    const minted = await this.call('/api/admin/authentication/token', { username: this.key.userEmail });
    if (minted === undefined) throw failed('minting a token for the user', 401);
    return minted;
  }

  /** One admin call; the new access token, or undefined when the call was refused with 401. */
  private async call(path: string, body: Record<string, string>): Promise<string | undefined> {
    const [idHeader, secretHeader] = this.key.headers;
    const res = await fetch(`${this.baseUrl}${path}`, {
      method: 'POST',
      headers: { [idHeader]: this.key.clientId, [secretHeader]: this.key.secret, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    if (res.status === 401) return undefined;
    const answer = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    const access = text(answer.accessToken) ?? text(answer.access_token);
    if (!res.ok || access === undefined) throw failed(`POST ${path}`, res.status);
    protect(access);
    this.refreshToken = text(answer.refreshToken) ?? text(answer.refresh_token);
    protect(this.refreshToken);
    this.held = accessToken(access, answer.expiresIn ?? answer.expires_in);
    log(`got an access token for the user (${path.endsWith('refresh') ? 'refreshed' : 'minted'})`);
    return access;
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
