/**
 * Client of the sign-in server (spec §4.2): token exchange and revoke, form-encoded. Every API token
 * the server hands out in exchange for another goes to the run's ledger as it is read (a rotation of
 * a token tack generated is tack's to revoke; one of the token file's stays the user's).
 */
import type { TokenLedger } from '../cleanup/ledger.js';
import type { HttpClient, HttpResponse } from '../http.js';
import type { Redactor } from '../redactor.js';
import type { SendGate } from '../together.js';
import { PATHS } from '../../spec.js';

export interface Exchanged {
  readonly res: HttpResponse;
  /** Present on a 200 that carried them. */
  readonly accessToken: string | undefined;
  readonly refreshToken: string | undefined;
  /** The OAuth `error` member of a refusal. */
  readonly error: string | undefined;
}

export class IdentityClient {
  constructor(
    private readonly http: HttpClient,
    private readonly redactor: Redactor,
    readonly identityUrl: string,
    readonly clientId: string,
    private readonly ledger?: TokenLedger,
  ) {}

  get tokenUrl(): string {
    return `${this.identityUrl}${PATHS.exchange}`;
  }

  get revokeUrl(): string {
    return `${this.identityUrl}${PATHS.revoke}`;
  }

  /** Exchange an API token (grant_type=refresh_token). `extra` fields are added to the form; `gate`: sent with others at once (together.ts). */
  async exchange(apiToken: string, options: { extra?: Record<string, string>; headers?: Record<string, string>; gate?: SendGate } = {}): Promise<Exchanged> {
    this.redactor.register('api-token', apiToken);
    const form = new URLSearchParams({ grant_type: 'refresh_token', client_id: this.clientId, refresh_token: apiToken, ...(options.extra ?? {}) });
    const res = await this.http.send({
      method: 'POST',
      url: this.tokenUrl,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', ...(options.headers ?? {}) },
      body: form.toString(),
      role: 'identity server',
      ...(options.gate === undefined ? {} : { gate: options.gate }),
    });
    const body = (res.json ?? {}) as Record<string, unknown>;
    const accessToken = res.status === 200 && typeof body.access_token === 'string' ? body.access_token : undefined;
    const refreshToken = res.status === 200 && typeof body.refresh_token === 'string' ? body.refresh_token : undefined;
    if (refreshToken) this.redactor.register('api-token', refreshToken);
    this.ledger?.exchanged(apiToken, refreshToken);
    return { res, accessToken, refreshToken, error: typeof body.error === 'string' ? body.error : undefined };
  }

  /** `cleanup`: the run's clean-up (sent even once the run is stopped); `gate`: sent with others at once (together.ts). */
  revoke(apiToken: string, options: { cleanup?: boolean; gate?: SendGate } = {}): Promise<HttpResponse> {
    this.redactor.register('api-token', apiToken);
    const form = new URLSearchParams({ client_id: this.clientId, token_type_hint: 'refresh_token', token: apiToken });
    return this.http.send({
      method: 'POST',
      url: this.revokeUrl,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      role: 'identity server',
      cleanup: options.cleanup === true,
      ...(options.gate === undefined ? {} : { gate: options.gate }),
    });
  }

  /** Any request to the sign-in server (CORS probes, other client ids); a token it hands out is listed like any other. */
  async raw(method: string, url: string, headers: Record<string, string>, body?: string): Promise<HttpResponse> {
    const res = await this.http.send({ method, url, headers, body, role: 'identity server' });
    const issued = (res.json as { refresh_token?: unknown } | undefined)?.refresh_token;
    if (method === 'POST' && url === this.tokenUrl && res.status === 200 && typeof issued === 'string') {
      this.ledger?.exchanged(new URLSearchParams(body ?? '').get('refresh_token') ?? '', issued);
    }
    return res;
  }
}
