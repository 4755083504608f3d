/**
 * What tack learns from a browser context's traffic, without changing it:
 *
 * - the token response the page receives when it redeems its authorization code in the browser
 *   (token-page.md: its `refresh_token` is the API token), so a copy can be compared with it;
 * - the authorization request (its `redirect_uri` and `state`), for the cancelled case;
 * - the hosts the page loads from, so that the unreachable case cuts only the sign-in server.
 *
 * Every token and one-time code seen is registered with the redactor at once: a Playwright error
 * message quoting a URL or a page's text can then never carry one into a report. Every API token
 * the page receives goes to `onToken` as it is read (the run's ledger: revoked when the run ends),
 * with the token the page sent when it was an exchange.
 */
import type { BrowserContext, Request, Response } from 'playwright-core';
import type { Redactor } from '../redactor.js';

export interface AuthorizationRequest {
  readonly redirectUri: string;
  readonly state: string;
}

export class TrafficTap {
  private pending: Promise<void>[] = [];
  private issued: string | undefined;
  private authorization: AuthorizationRequest | undefined;
  /** Hosts of every request the context made (host:port). */
  readonly hosts = new Set<string>();
  /** POSTs the page sent to the token endpoint. */
  tokenRequests = 0;
  private inFlight = 0;
  private lastActivity = Date.now();
  /** Token requests sent and not yet answered (their answer may carry a token). */
  private tokenCallsOpen = 0;

  constructor(
    context: BrowserContext,
    private readonly tokenEndpoint: string,
    private readonly redactor: Redactor,
    /** Every API token the page receives: `sent` is the token it exchanged, undefined for a new one. */
    private readonly onToken: (issued: string, sent: string | undefined) => void = () => undefined,
  ) {
    context.on('request', (request) => {
      this.inFlight++;
      this.lastActivity = Date.now();
      this.onRequest(request);
    });
    context.on('response', (response) => this.onResponse(response));
    const done = () => {
      this.inFlight = Math.max(0, this.inFlight - 1);
      this.lastActivity = Date.now();
    };
    context.on('requestfinished', done);
    context.on('requestfailed', (request) => {
      done();
      if (this.isTokenCall(request)) this.tokenCallsOpen = Math.max(0, this.tokenCallsOpen - 1);
    });
  }

  private isTokenCall(request: Request): boolean {
    try {
      return request.method() === 'POST' && sameEndpoint(new URL(request.url()), this.tokenEndpoint);
    } catch {
      return false;
    }
  }

  /** Resolves once every token request the page sent is answered and read (at most `maxMs`). */
  async tokenCallsAnswered(maxMs: number): Promise<void> {
    const until = Date.now() + maxMs;
    while (this.tokenCallsOpen > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    await Promise.all(this.pending);
  }

  /** Whether the page received an API token since the last `reset()` (tack then knows the token shown). */
  get tokenSeen(): boolean {
    return this.issued !== undefined;
  }

  /** Resolves once no request has been in flight for `quietMs`, or after `maxMs`. */
  async idle(quietMs: number, maxMs: number): Promise<void> {
    const until = Date.now() + maxMs;
    while (Date.now() < until && (this.inFlight > 0 || Date.now() - this.lastActivity < quietMs)) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Forgets what the last generation left (call before pressing Generate token). */
  reset(): void {
    this.issued = undefined;
    this.authorization = undefined;
    this.tokenRequests = 0;
  }

  /** The refresh_token of the last token response the page received, when it redeemed its code in the browser. */
  async issuedToken(): Promise<string | undefined> {
    await Promise.all(this.pending);
    this.pending = [];
    return this.issued;
  }

  /** The last authorization request with a redirect_uri and a state. */
  get lastAuthorization(): AuthorizationRequest | undefined {
    return this.authorization;
  }

  private onRequest(request: Request): void {
    let url: URL;
    try {
      url = new URL(request.url());
    } catch {
      return;
    }
    this.hosts.add(url.host);
    for (const name of ['code', 'session_state', 'code_verifier']) this.redactor.register('auth-code', url.searchParams.get(name));
    const redirectUri = url.searchParams.get('redirect_uri');
    const state = url.searchParams.get('state');
    if (request.isNavigationRequest() && redirectUri !== null && state !== null) this.authorization = { redirectUri, state };
    if (request.method() === 'POST' && sameEndpoint(url, this.tokenEndpoint)) {
      this.tokenRequests++;
      this.tokenCallsOpen++;
      const body = new URLSearchParams(request.postData() ?? '');
      for (const name of ['code', 'code_verifier', 'refresh_token']) this.redactor.register('auth-code', body.get(name));
    }
  }

  private onResponse(response: Response): void {
    const request = response.request();
    if (request.method() !== 'POST' || !sameEndpoint(new URL(response.url()), this.tokenEndpoint)) return;
    const form = new URLSearchParams(request.postData() ?? '');
    const sent = form.get('grant_type') === 'refresh_token' ? (form.get('refresh_token') ?? undefined) : undefined;
    this.pending.push(
      response
        .json()
        .then(
          (body: unknown) => {
            const fields = (body ?? {}) as Record<string, unknown>;
            if (typeof fields.access_token === 'string') this.redactor.register('access-token', fields.access_token);
            if (typeof fields.refresh_token === 'string' && fields.refresh_token !== '') {
              this.redactor.register('api-token', fields.refresh_token);
              this.onToken(fields.refresh_token, sent);
              this.issued = fields.refresh_token;
            }
          },
          () => undefined,
        )
        .finally(() => {
          this.tokenCallsOpen = Math.max(0, this.tokenCallsOpen - 1);
        }),
    );
  }
}

function sameEndpoint(url: URL, endpoint: string): boolean {
  return `${url.origin}${url.pathname}` === endpoint;
}
