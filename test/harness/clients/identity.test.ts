/**
 * IdentityClient: the exchange form (grant_type=refresh_token, client id, token), tokens taken only
 * from a 200, every token it sees registered with the redactor, and the revoke form with its hint.
 */
import { describe, expect, it } from 'vitest';
import { IdentityClient } from '../../../src/harness/clients/identity.js';
import { Redactor } from '../../../src/harness/redactor.js';
import { stubHttp } from '../stub-http.js';

const ID = 'http://id.localhost/realms/payroll';

describe('IdentityClient.exchange', () => {
  it('posts the refresh_token grant and returns both tokens of a 200, registered as secrets', async () => {
    const { http, sent } = stubHttp(() => ({ status: 200, json: { access_token: 'acc', refresh_token: 'rotated-api-token' } }));
    const redactor = new Redactor();
    const result = await new IdentityClient(http, redactor, ID, 'payroll-portal').exchange('first-api-token');
    expect(result).toMatchObject({ accessToken: 'acc', refreshToken: 'rotated-api-token', error: undefined });
    expect(sent[0]).toMatchObject({ method: 'POST', url: `${ID}/protocol/openid-connect/token`, role: 'identity server' });
    expect(Object.fromEntries(new URLSearchParams(sent[0]!.body))).toEqual({
      grant_type: 'refresh_token',
      client_id: 'payroll-portal',
      refresh_token: 'first-api-token',
    });
    expect(redactor.redact('first-api-token rotated-api-token')).not.toMatch(/first-api-token|rotated-api-token/);
  });

  it('takes no token from a refusal, whatever its body holds, and keeps the OAuth error', async () => {
    const { http } = stubHttp(() => ({ status: 400, json: { error: 'invalid_grant', access_token: 'x', refresh_token: 'y' } }));
    const result = await new IdentityClient(http, new Redactor(), ID, 'c').exchange('t');
    expect(result).toMatchObject({ accessToken: undefined, refreshToken: undefined, error: 'invalid_grant' });
  });

  it('adds extra form fields and headers when asked', async () => {
    const { http, sent } = stubHttp(() => ({ status: 400 }));
    await new IdentityClient(http, new Redactor(), ID, 'c').exchange('t', { extra: { scope: 'openid' }, headers: { origin: 'http://evil' } });
    expect(new URLSearchParams(sent[0]!.body).get('scope')).toBe('openid');
    expect(sent[0]!.headers?.origin).toBe('http://evil');
  });
});

describe('IdentityClient.revoke', () => {
  it('posts the token with the refresh_token hint to the revoke endpoint, marked as clean-up when asked', async () => {
    const { http, sent } = stubHttp(() => ({ status: 200 }));
    await new IdentityClient(http, new Redactor(), ID, 'c').revoke('tok', { cleanup: true });
    expect(sent[0]).toMatchObject({ method: 'POST', url: `${ID}/protocol/openid-connect/revoke`, cleanup: true });
    expect(Object.fromEntries(new URLSearchParams(sent[0]!.body))).toEqual({ client_id: 'c', token_type_hint: 'refresh_token', token: 'tok' });
  });
});
