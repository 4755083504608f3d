/** The doctor's `sign-in` section: not tried when the sign-in server is down; otherwise the probe's verdict on the token endpoint and client id. */
import { describe, expect, it } from 'vitest';
import { diagnoseSignIn } from '../../src/doctor/sign-in-accepts.js';
import { sayings, stubHttp, targetOf } from './helpers.js';

describe('diagnoseSignIn', () => {
  it('sends nothing and says skipped when the sign-in server is down', async () => {
    const { http, sent } = stubHttp(() => ({ status: 500 }));
    const { say, lines } = sayings();
    await diagnoseSignIn(targetOf(), http, () => true, say);
    expect(sent).toEqual([]);
    expect(lines).toEqual([['skipped', 'token endpoint not tried: the sign-in server is not reachable']]);
  });

  it.each([
    ['400 invalid_grant: the client id is accepted', { status: 400, json: { error: 'invalid_grant' } }, 'ok'],
    ['404: no token endpoint there', { status: 404 }, 'problem'],
  ])('on %s', async (_what, answer, status) => {
    const { http, sent } = stubHttp(() => answer);
    const { say, lines } = sayings();
    await diagnoseSignIn(targetOf(), http, () => false, say);
    expect(sent[0]).toMatchObject({ method: 'POST', url: 'http://id.localhost:1/realms/payroll/protocol/openid-connect/token' });
    expect(lines.map(([s]) => s)).toEqual([status]);
  });
});
