/**
 * Client of a target's test hook (`tack-hook/1`, docs/contracts/test-hook.md). tack calls only
 * what the hook lists in its capabilities. Every API token it generates goes to the run's ledger
 * (journal) before the caller gets it: it is revoked when the run ends.
 */
import type { TokenLedger } from '../cleanup/ledger.js';
import { TackError } from '../errors.js';
import type { SendGate } from '../together.js';
import type { HttpClient, HttpResponse } from '../http.js';

/** What a test hook may offer (`tack-hook/1`, docs/contracts/test-hook.md). */
/** `passwords` (token-page.md): user creation takes an optional "password", so tack's users can sign in to the web pages. */
export const ALL_CAPABILITIES = ['clock', 'users', 'api-tokens', 'disable-user', 'businesses', 'access', 'features', 'passwords'] as const;

export type Capability = (typeof ALL_CAPABILITIES)[number];

interface HookUser {
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly signIn: 'direct' | 'embedded';
  /** Only where the hook lists `passwords` (token-page.md): the user can then sign in at the web pages. */
  readonly password?: string;
}

export class HookClient {
  capabilities: ReadonlySet<Capability> = new Set();
  contract = '';

  constructor(
    /** tack's HTTP client, or what the Artillery processor sends through (src/load/artillery/vu-setup.ts). */
    private readonly http: Pick<HttpClient, 'send'>,
    private readonly url: string,
    private readonly token: string,
    private readonly ledger?: TokenLedger,
  ) {}

  /** `GET /`: which contract and capabilities the target offers. */
  async discover(): Promise<ReadonlySet<Capability>> {
    const res = await this.call('GET', '/');
    const body = res.json as { contract?: unknown; capabilities?: unknown } | undefined;
    if (res.status === 401) throw new TackError('TACK_ERR_HOOK', `the test hook at ${this.url} refused TACK_HOOK_TOKEN (401): check the token`);
    if (res.status !== 200 || !body || !Array.isArray(body.capabilities)) {
      throw new TackError(
        'TACK_ERR_HOOK',
        `the test hook at ${this.url} did not answer GET / with {"contract","capabilities"} (status ${res.status}): check TACK_HOOK_URL`,
      );
    }
    this.contract = typeof body.contract === 'string' ? body.contract : '';
    this.capabilities = new Set(body.capabilities.filter((c): c is Capability => ALL_CAPABILITIES.includes(c as Capability)));
    return this.capabilities;
  }

  has(capability: Capability): boolean {
    return this.capabilities.has(capability);
  }

  async now(): Promise<Date> {
    const res = this.expectStatus(await this.call('GET', '/clock'), 200, 'read the clock');
    return new Date(String((res.json as { now?: unknown })?.now));
  }

  /** Moves the target's clock forward. */
  async advance(seconds: number): Promise<Date> {
    const res = this.expectStatus(await this.call('POST', '/clock', { advanceSeconds: Math.max(0, Math.round(seconds)) }), 200, 'advance the clock');
    return new Date(String((res.json as { now?: unknown })?.now));
  }

  async createUser(tenant: string, user: HookUser): Promise<void> {
    this.expectStatus(await this.call('POST', `/tenants/${enc(tenant)}/users`, user), 201, `create a user in tenant ${tenant}`);
  }

  /** The raw answer to an API-token request (for checks that expect a refusal); a token in it is listed all the same. */
  async apiTokenResponse(tenant: string, email: string): Promise<HttpResponse> {
    const res = await this.call('POST', `/tenants/${enc(tenant)}/users/${enc(email)}/api-tokens`, {});
    const token = (res.json as { apiToken?: unknown } | undefined)?.apiToken;
    if (res.status >= 200 && res.status <= 299 && typeof token === 'string') this.ledger?.generated(token, 'hook', email);
    return res;
  }

  async apiToken(tenant: string, email: string): Promise<string> {
    const res = this.expectStatus(await this.apiTokenResponse(tenant, email), 201, `generate an API token in tenant ${tenant}`);
    const token = (res.json as { apiToken?: unknown })?.apiToken;
    if (typeof token !== 'string' || token === '') throw new TackError('TACK_ERR_HOOK', 'the test hook answered 201 without an apiToken string');
    return token;
  }

  /** `gate`: sent with other requests at once (together.ts). */
  async disable(email: string, gate?: SendGate): Promise<void> {
    this.expectStatus(await this.call('POST', `/users/${enc(email)}/disable`, {}, gate), 204, 'disable a user');
  }

  async createBusiness(tenant: string, business: { name: string; registrationNumber: string }): Promise<string> {
    const res = this.expectStatus(await this.call('POST', `/tenants/${enc(tenant)}/businesses`, business), 201, `create a business in tenant ${tenant}`);
    const id = (res.json as { id?: unknown })?.id;
    if (typeof id !== 'string' && typeof id !== 'number') throw new TackError('TACK_ERR_HOOK', 'the test hook answered 201 without a business id');
    return String(id);
  }

  async setAccess(tenant: string, businessId: string, email: string, access: 'read' | 'none'): Promise<void> {
    this.expectStatus(
      await this.call('PUT', `/tenants/${enc(tenant)}/businesses/${enc(businessId)}/access/${enc(email)}`, { access }),
      204,
      `set ${access} access to a business in tenant ${tenant}`,
    );
  }

  /** Switches the tenant's API-token feature (see `TestContext.undo` for switching it back). */
  async setFeature(tenant: string, apiTokens: boolean): Promise<void> {
    this.expectStatus(await this.call('PUT', `/tenants/${enc(tenant)}/features`, { apiTokens }), 204, `switch the API-token feature of tenant ${tenant}`);
  }

  private call(method: string, path: string, body?: unknown, gate?: SendGate): Promise<HttpResponse> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const text = body === undefined ? undefined : JSON.stringify(body);
    return this.http.send({ method, url: this.url + path, headers, body: text, role: 'test hook', ...(gate === undefined ? {} : { gate }) });
  }

  private expectStatus(res: HttpResponse, status: number, what: string): HttpResponse {
    if (res.status === status) return res;
    const error = (res.json as { error?: unknown } | undefined)?.error;
    throw new TackError('TACK_ERR_HOOK', `the test hook could not ${what}: ${res.status}${typeof error === 'string' ? ` ${error}` : ''} (expected ${status})`);
  }
}

function enc(segment: string): string {
  return encodeURIComponent(segment);
}
