/**
 * The lifecycle system over HTTP: one fresh user of tenant A with a new API token (hook-owned, so
 * revoking, disabling and reusing rotated-out tokens are allowed), given read access to the run's
 * business when the hook can (so a working access token is seen listing it), the sign-in server,
 * the API and the hook clock.
 */
import type { Exchanged } from '../../../src/harness/clients/identity.js';
import type { TestContext } from '../../../src/runner/test-context.js';
import { describeResponse } from '../../../src/checks/describe-response.js';
import type { HttpResponse } from '../../../src/harness/http.js';
import type { Reads } from '../../../src/harness/readers.js';
import type { TokenChain } from '../../../src/harness/tokens.js';
import { lists } from '../../../src/checks/search.js';
import { searchPages } from '../../../src/steps/paging.js';
import type { ApiSeen, ExchangeSeen, LifecycleSystem, RevokeSeen } from './system.js';

export class HttpLifecycleSystem implements LifecycleSystem {
  private accessToken: string | undefined;

  private constructor(
    private readonly t: TestContext,
    private chain: TokenChain,
    private reads: Reads | undefined,
  ) {}

  /** A fresh user and token: the target's clock only moves forward, so every run starts anew. */
  static async start(t: TestContext): Promise<HttpLifecycleSystem> {
    const { chain, reads } = await freshChain(t);
    return new HttpLifecycleSystem(t, chain, reads);
  }

  async newToken(): Promise<void> {
    ({ chain: this.chain, reads: this.reads } = await freshChain(this.t));
    this.accessToken = undefined;
  }

  async exchange(): Promise<ExchangeSeen> {
    const before = this.chain.current;
    const result = await this.chain.exchange();
    const seen = seenOf(result, before);
    if (seen.success) this.accessToken = result.accessToken;
    return seen;
  }

  async reuseRotatedOut(): Promise<ExchangeSeen> {
    const old = this.chain.previous.at(-1);
    if (old === undefined) throw new Error('no rotated-out token to reuse (the model should have skipped this command)');
    // Sent directly, not through the chain: whatever comes back belongs to the old branch.
    return seenOf(await this.t.identity.exchange(old), old);
  }

  async revoke(): Promise<RevokeSeen> {
    const res = await this.t.identity.revoke(this.chain.current);
    return { status: res.status, emptyBody: res.text.trim() === '', summary: bodySummary(res) };
  }

  async disableUser(): Promise<void> {
    await this.t.hook.disable(this.chain.email);
  }

  async advance(seconds: number): Promise<void> {
    if (seconds > 0) await this.t.advance(seconds);
  }

  async useAccessToken(): Promise<ApiSeen> {
    if (this.accessToken === undefined) throw new Error('no access token yet (the model should have skipped this command)');
    const pages = await searchPages(this.t, this.t.target.baseUrl, this.accessToken);
    const listsData = this.reads?.kind === 'business' && lists(pages, this.reads);
    return { status: pages.first.status, listsData, summary: `${describeResponse(pages.first)}${listsData ? ", listing the user's business" : ''}` };
  }
}

function seenOf(result: Exchanged, sent: string): ExchangeSeen {
  const success = result.res.status === 200 && isNonEmpty(result.accessToken) && isNonEmpty(result.refreshToken);
  return {
    status: result.res.status,
    error: result.error,
    success,
    rotated: success && result.refreshToken !== sent,
    summary: describeResponse(result.res),
  };
}

function isNonEmpty(value: string | undefined): value is string {
  return value !== undefined && value !== '';
}

function bodySummary(res: HttpResponse): string {
  const length = res.text.trim().length;
  return `${describeResponse(res)}, ${length === 0 ? 'empty body' : `body of ${length} characters`}`;
}

async function freshChain(t: TestContext): Promise<{ chain: TokenChain; reads: Reads | undefined }> {
  const reader = t.readers.canGrant ? await t.tokens.reader() : undefined;
  return reader ?? { chain: await t.tokens.own(), reads: undefined };
}
