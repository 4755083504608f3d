/** The preflight's probes: one per configured host (tenant B and the hook only when configured), and a host is down only on 502-504. */
import { describe, expect, it } from 'vitest';
import { isTackError, TackError } from '../../src/harness/errors.js';
import { probeHost, probesOf } from '../../src/harness/preflight.js';
import type { TargetConfig } from '../../src/harness/target-config.js';
import { stubHttp } from './stub-http.js';

const base = { baseUrl: 'http://acme.localhost', identityUrl: 'http://id.localhost/realms/p', otherBaseUrl: undefined, hook: undefined } as TargetConfig;

describe('probesOf', () => {
  it('probes the tenant host and the sign-in server', () => {
    expect(probesOf(base).map((p) => [p.role, p.method, p.url])).toEqual([
      ['tenant host', 'GET', 'http://acme.localhost/api/businesses/search'],
      ['identity server', 'POST', 'http://id.localhost/realms/p/protocol/openid-connect/token'],
    ]);
  });

  it("adds tenant B's host and the hook (with its token) when configured", () => {
    const probes = probesOf({ ...base, otherBaseUrl: 'http://beta.localhost', hook: { url: 'http://hook.localhost', token: 'h' } });
    expect(probes.map((p) => p.role)).toEqual(['tenant host', 'identity server', "tenant B's host", 'test hook']);
    expect(probes[3]).toMatchObject({ url: 'http://hook.localhost/', headers: { authorization: 'Bearer h' } });
  });
});

describe('probeHost', () => {
  it.each([200, 401, 404, 500])('a host that answers %i is up', async (status) => {
    const { http } = stubHttp(() => ({ status }));
    await expect(probeHost(http, probesOf(base)[0]!)).resolves.toBeUndefined();
  });

  it.each([502, 503, 504])('a host that answers %i is down, with TACK_ERR_UNREACHABLE', async (status) => {
    const { http } = stubHttp(() => ({ status }));
    const problem = await probeHost(http, probesOf(base)[0]!);
    expect(isTackError(problem, 'TACK_ERR_UNREACHABLE')).toBe(true);
    expect(problem?.message).toMatch(new RegExp(`tenant host http://acme.localhost answered ${status}`));
  });

  it("returns the client's own TackError (a refused connection) rather than throwing", async () => {
    const refused = new TackError('TACK_ERR_UNREACHABLE', 'connection refused');
    const http = { send: () => Promise.reject(refused) } as never;
    await expect(probeHost(http, probesOf(base)[0]!)).resolves.toBe(refused);
  });
});
