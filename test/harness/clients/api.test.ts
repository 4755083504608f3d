/** ApiClient: business search at a tenant host, with the bearer token only when there is one, and the query as given. */
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/harness/clients/api.js';
import { stubHttp } from '../stub-http.js';

describe('ApiClient.search', () => {
  it.each([
    ['a token and a query', 'tok', { pageIndex: '2', q: 'a b' }, 'http://acme/api/businesses/search?pageIndex=2&q=a+b', 'Bearer tok'],
    ['no token: no Authorization header', undefined, {}, 'http://acme/api/businesses/search', undefined],
    ['an empty token: still a Bearer header', '', {}, 'http://acme/api/businesses/search', 'Bearer '],
  ])('sends %s', async (_what, token, query, url, authorization) => {
    const { http, sent } = stubHttp(() => ({ status: 200 }));
    await new ApiClient(http).search('http://acme', token, query);
    expect(sent[0]).toMatchObject({ method: 'GET', url, role: 'tenant host' });
    expect(sent[0]!.headers?.authorization).toBe(authorization);
    expect(sent[0]!.headers?.accept).toBe('application/json');
  });

  it('raw sends the method, URL and headers as given', async () => {
    const { http, sent } = stubHttp(() => ({ status: 405 }));
    const res = await new ApiClient(http).raw('DELETE', 'http://acme/x', { a: 'b' });
    expect(res.status).toBe(405);
    expect(sent).toEqual([{ method: 'DELETE', url: 'http://acme/x', headers: { a: 'b' }, role: 'tenant host' }]);
  });
});
