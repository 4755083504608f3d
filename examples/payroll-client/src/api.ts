/**
 * The payroll API: business search (spec §4.3), with `Authorization: Bearer` and the spec's one
 * retry: on 401, a new access token and the same call once more; a second 401 ends the work. A 403
 * is for a person to fix (a missing permission) and is never retried.
 */
import type { TokenSource } from './access-token.js';
import { failed, forbidden } from './errors.js';
import { log } from './log.js';

export interface Business {
  readonly id: string;
  readonly name: string;
  readonly registrationNumber: string;
}

interface SearchPage {
  readonly items: readonly Business[];
  readonly pageIndex: number;
  readonly pageSize: number;
  readonly totalCount: number;
}

/**
 * The paging query parameter. The spec does not name search's query parameters; tack's reference
 * server uses `pageIndex`. Ask your provider for theirs.
 */
const PAGE_PARAM = 'pageIndex';

export class PayrollApi {
  constructor(
    private readonly baseUrl: string,
    private readonly tokens: TokenSource,
  ) {}

  /** Every business the user may read, page after page. */
  async allBusinesses(): Promise<Business[]> {
    const found: Business[] = [];
    let page: number | undefined;
    for (;;) {
      const result = await this.searchPage(page);
      found.push(...result.items);
      if (result.items.length === 0 || found.length >= result.totalCount) return found;
      page = result.pageIndex + 1;
    }
  }

  private async searchPage(page: number | undefined): Promise<SearchPage> {
    const query = page === undefined ? '' : `?${new URLSearchParams({ [PAGE_PARAM]: String(page) })}`;
    const url = `${this.baseUrl}/api/businesses/search${query}`;
    let res = await this.get(url, await this.tokens.current());
    if (res.status === 401) {
      log('the API answered 401: renewing the access token and trying once more');
      res = await this.get(url, await this.tokens.renew());
    }
    if (res.status === 403) throw forbidden('business search');
    if (!res.ok) throw failed('business search', res.status);
    return (await res.json()) as SearchPage;
  }

  private get(url: string, accessToken: string): Promise<Response> {
    return fetch(url, { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' }, signal: AbortSignal.timeout(10_000) });
  }
}
