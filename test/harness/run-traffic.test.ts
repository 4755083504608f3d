/**
 * specTraffic keeps only the exchanges that went to an endpoint of the spec, each named as the spec
 * writes it; the hook, the web pages and lookalike hosts are left out.
 */
import { describe, expect, it } from 'vitest';
import { specTraffic } from '../../src/harness/run-traffic.js';
import type { TargetConfig } from '../../src/harness/target-config.js';
import { Transcript } from '../../src/harness/transcript.js';

const target = {
  baseUrl: 'http://acme.localhost:8080',
  otherBaseUrl: 'http://beta.localhost:8080',
  identityUrl: 'http://id.localhost:8080/realms/payroll',
} as TargetConfig;

function traffic(...urls: [string, string][]) {
  const transcript = new Transcript();
  transcript.setTest('t1');
  for (const [method, url] of urls) transcript.end(transcript.begin({ method, url }), { status: 200, headers: {}, body: '{"a":1}' }, 1);
  return specTraffic(transcript, target);
}

describe('specTraffic', () => {
  it.each([
    ['GET', 'http://acme.localhost:8080/api/businesses/search?pageIndex=1', 'search', 'GET /api/businesses/search'],
    ['GET', 'http://beta.localhost:8080/api/businesses/search', 'search', 'GET /api/businesses/search'],
    ['POST', 'http://acme.localhost:8080/api/admin/users', 'partner-key', 'POST /api/admin/users'],
    ['POST', 'http://acme.localhost:8080/api/admin/users/a%40example.com/reset-password', 'partner-key', 'POST /api/admin/users/{email}/reset-password'],
    ['POST', 'http://id.localhost:8080/realms/payroll/protocol/openid-connect/token', 'sign-in', 'POST /protocol/openid-connect/token'],
  ])('names %s %s as %s', (method, url, side, endpoint) => {
    const [exchange] = traffic([method, url]);
    expect(exchange).toMatchObject({ side, endpoint, test: 't1', retried: false, response: { status: 200, json: { a: 1 } } });
  });

  it.each([
    ['the web pages', 'http://acme.localhost:8080/account/api-tokens'],
    ['a host that only starts like the tenant host', 'http://acme.localhost:80800/api/businesses/search'],
    ['another path of the sign-in server', 'http://id.localhost:8080/realms/payroll/account'],
    ['the test hook', 'http://hook.localhost:8080/clock'],
  ])('leaves out %s', (_what, url) => {
    expect(traffic(['GET', url])).toEqual([]);
  });
});
