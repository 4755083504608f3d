/**
 * The member steps over a stubbed partner client: a refused create or mint stops the test as a
 * precondition (never a verdict), a reader is found through the hook or TACK_USER_EMAIL, and a token
 * in any body is named and registered with the redactor.
 */
import { describe, expect, it } from 'vitest';
import type { PartnerClient } from '../../src/harness/clients/partner.js';
import { createMember, mintedPair, mintOrStop, readerMember, tokenInBody } from '../../src/steps/members.js';
import { response, stubContext } from './stub-context.js';

const names = { email: (label: string) => `tack+r1.${label}.1@example.com`, person: () => ({ firstName: 'Ada', lastName: 'Byron' }) };
const fields = { partnerAccessToken: undefined, partnerRefreshToken: undefined, resetUrl: undefined };

function partner(createStatus: number, mint: { access?: string; refresh?: string; status?: number } = {}) {
  const created: unknown[] = [];
  const client = {
    baseUrl: 'http://acme.localhost',
    createUser: (user: unknown) => {
      created.push(user);
      return Promise.resolve(response(createStatus));
    },
    mint: () =>
      Promise.resolve({
        res: response(mint.status ?? 200),
        access: mint.access === undefined ? undefined : { value: mint.access, field: 'access_token' },
        refresh: mint.refresh === undefined ? undefined : { value: mint.refresh, field: 'refresh_token' },
      }),
  };
  return { client: client as unknown as PartnerClient, created };
}

describe('createMember', () => {
  it('creates the user with a named e-mail and a person, and returns the e-mail', async () => {
    const { client, created } = partner(201);
    const { t } = stubContext({ names, partner: client });
    await expect(createMember(t, 'member')).resolves.toBe('tack+r1.member.1@example.com');
    expect(created).toEqual([{ email: 'tack+r1.member.1@example.com', firstName: 'Ada', lastName: 'Byron' }]);
  });

  it('stops with a precondition error naming the status when the create is refused', async () => {
    const { client } = partner(403);
    const { t, records } = stubContext({ names, partner: client });
    await expect(createMember(t, 'member')).rejects.toThrow(/precondition.*answered 403/);
    expect(records).toEqual([]);
  });
});

describe('readerMember', () => {
  it('grants read access through the hook when it can', async () => {
    const { client } = partner(201);
    const readers = { canGrant: true, grant: (tenant: string, email: string) => Promise.resolve({ kind: 'business', id: `${tenant}:${email}`, name: 'n' }) };
    const { t } = stubContext({ names, partner: client, readers, target: { tenant: 'acme' } });
    await expect(readerMember(t, 'r')).resolves.toMatchObject({ email: 'tack+r1.r.1@example.com', reads: { id: 'acme:tack+r1.r.1@example.com' } });
  });

  it.each([
    ['TACK_USER_EMAIL, who reads some business', 'u@example.com', { email: 'u@example.com', reads: { kind: 'some' } }],
    ['nobody without the hook or TACK_USER_EMAIL', undefined, undefined],
  ])('falls back to %s', async (_what, userEmail, expected) => {
    const { t } = stubContext({ readers: { canGrant: false }, target: { userEmail } });
    await expect(readerMember(t, 'r')).resolves.toEqual(expected);
  });
});

describe('mintOrStop and mintedPair', () => {
  it('returns the minted pair', async () => {
    const { client } = partner(201, { access: 'acc', refresh: 'ref' });
    const { t } = stubContext({ partner: client });
    await expect(mintedPair(t, 'a@example.com')).resolves.toEqual({ access: 'acc', refresh: 'ref' });
  });

  it('stops when no access token was minted', async () => {
    const { client } = partner(201, { status: 400 });
    const { t } = stubContext({ partner: client });
    await expect(mintOrStop(t, 'a@example.com')).rejects.toThrow(/precondition.*400, no access token/);
  });

  it('stops when the mint carried no refresh token (PARTNER-MINT is judged elsewhere)', async () => {
    const { client } = partner(201, { access: 'acc' });
    const { t } = stubContext({ partner: client });
    await expect(mintedPair(t, 'a@example.com')).rejects.toThrow(/no refresh token/);
  });
});

describe('tokenInBody', () => {
  it.each([
    ['an access token in a refusal', response(400, { access_token: 'leaked' }), 'access_token', ['leaked']],
    ['a refresh token only', response(409, { refresh_token: 'r-leak' }), 'refresh_token', ['r-leak']],
    ['no token', response(400, { title: 'bad' }), undefined, []],
  ])('names %s and registers it as a secret', (_what, res, field, secrets) => {
    const registered: string[] = [];
    const redactor = { register: (_kind: string, value: string) => registered.push(value) };
    const { t } = stubContext({ redactor, target: { fields } });
    expect(tokenInBody(t, res)).toBe(field);
    expect(registered).toEqual(secrets);
  });
});
