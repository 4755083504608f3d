/**
 * Client of the partner-key endpoints (spec §4.1) at one tenant host with one key. Checks send
 * tampered headers through `call()`; the helpers build the well-formed calls.
 */
import type { SendGate } from '../together.js';
import type { HttpClient, HttpResponse } from '../http.js';
import type { Redactor } from '../redactor.js';
import { findAccessToken, findRefreshToken, type Found, searchResetUrl } from './fields.js';
import type { PartnerKey, TargetConfig } from '../target-config.js';
import { PATHS, resetPasswordPath } from '../../spec.js';

export interface PartnerTokens {
  readonly res: HttpResponse;
  readonly access: Found<string> | undefined;
  readonly refresh: Found<string> | undefined;
}

interface CallOptions {
  /** Credential headers to send instead of the configured key; `{}` sends none. */
  readonly credentials?: Record<string, string>;
  /** Raw body text; JSON bodies use `json`. */
  readonly body?: string;
  readonly json?: unknown;
  readonly contentType?: string | null;
  /** Sent with other requests at once (together.ts). */
  readonly gate?: SendGate;
}

export class PartnerClient {
  /** Which response fields carried the values whose names the spec does not give. */
  readonly fieldsUsed: Record<string, string> = {};

  constructor(
    /** tack's HTTP client and redactor, or what the Artillery processor has in their place (src/load/artillery/vu-setup.ts). */
    private readonly http: Pick<HttpClient, 'send'>,
    private readonly redactor: Pick<Redactor, 'register'>,
    readonly baseUrl: string,
    readonly key: PartnerKey | undefined,
    private readonly config: TargetConfig,
  ) {}

  /** The configured credential headers (names from TACK_PARTNER_HEADERS). */
  headers(key: PartnerKey | undefined = this.key, names: readonly [string, string] = this.config.partnerHeaders): Record<string, string> {
    if (!key) return {};
    this.redactor.register('partner-secret', key.secret);
    return { [names[0]]: key.clientId, [names[1]]: key.secret };
  }

  /** Any call to a partner-key endpoint of this host. */
  call(method: string, path: string, options: CallOptions = {}): Promise<HttpResponse> {
    const headers: Record<string, string> = { ...(options.credentials ?? this.headers()) };
    for (const [name, value] of Object.entries(headers)) {
      // A client id sent in the secret header (swapped names) stays readable: client ids are public (§5).
      const publicId = value === this.config.partner?.clientId || value === this.config.otherPartner?.clientId;
      if (name.toLowerCase() === this.config.partnerHeaders[1].toLowerCase() && value !== this.key?.secret && !publicId) {
        this.redactor.register('partner-secret-variant', value);
      }
    }
    let body = options.body;
    if (options.json !== undefined) body = JSON.stringify(options.json);
    const contentType = options.contentType === undefined ? (body !== undefined ? 'application/json' : undefined) : options.contentType;
    if (contentType !== undefined && contentType !== null) headers['content-type'] = contentType;
    const gate = options.gate === undefined ? {} : { gate: options.gate };
    return this.http.send({ method, url: this.baseUrl + path, headers, body, role: `tenant host`, ...gate });
  }

  async mint(username: string, options: Omit<CallOptions, 'json'> = {}): Promise<PartnerTokens> {
    const res = await this.call('POST', PATHS.mint, { ...options, json: { username } });
    return this.tokensOf(res);
  }

  async refresh(refreshToken: string, options: Omit<CallOptions, 'json'> = {}): Promise<PartnerTokens> {
    const res = await this.call('POST', PATHS.partnerRefresh, { ...options, json: { refreshToken } });
    return this.tokensOf(res);
  }

  createUser(user: Record<string, unknown>, options: Omit<CallOptions, 'json'> = {}): Promise<HttpResponse> {
    return this.call('POST', PATHS.users, { ...options, json: user });
  }

  /** `ambiguous`: the fields of several absolute URLs, none named like the action (then no `url`). */
  async resetPassword(
    email: string,
    options: CallOptions = {},
  ): Promise<{ res: HttpResponse; url: Found<string> | undefined; ambiguous: readonly string[] | undefined }> {
    const path = resetPasswordPath(email);
    const res = await this.call('POST', path, options);
    const { url, ambiguous } = searchResetUrl(res.json, res.text, this.config.fields.resetUrl, this.baseUrl + path);
    if (url) {
      this.fieldsUsed['reset-password action URL'] = url.field;
      // A reset link lets its holder set the user's password: treated as a secret in every output.
      this.redactor.register('reset-url', url.value);
    }
    return { res, url, ambiguous };
  }

  tokensOf(res: HttpResponse): PartnerTokens {
    const access = res.status >= 200 && res.status < 300 ? findAccessToken(res.json, this.config.fields.partnerAccessToken) : undefined;
    const refresh = res.status >= 200 && res.status < 300 ? findRefreshToken(res.json, this.config.fields.partnerRefreshToken) : undefined;
    if (access) {
      this.redactor.register('access-token', access.value);
      this.fieldsUsed['partner access token'] = access.field;
    }
    if (refresh) {
      this.redactor.register('refresh-token', refresh.value);
      this.fieldsUsed['partner refresh token'] = refresh.field;
    }
    return { res, access, refresh };
  }
}
