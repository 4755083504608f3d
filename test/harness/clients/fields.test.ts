import { describe, expect, it } from 'vitest';
import { findAccessToken, findRefreshToken, findResetUrl } from '../../../src/harness/clients/fields.js';

describe('fields the spec does not name', () => {
  it.each([
    [{ accessToken: 'a', refreshToken: 'r' }, 'accessToken', 'refreshToken'],
    [{ access_token: 'a', refresh_token: 'r' }, 'access_token', 'refresh_token'],
    [{ data: { AccessToken: 'a', RefreshToken: 'r' } }, 'data.AccessToken', 'data.RefreshToken'],
    [{ token: 'a', refresh_token: 'r' }, 'token', 'refresh_token'],
  ])('finds the common spellings in %j', (json, access, refresh) => {
    expect(findAccessToken(json, undefined)).toEqual({ value: 'a', field: access });
    expect(findRefreshToken(json, undefined)).toEqual({ value: 'r', field: refresh });
  });

  it('prefers an explicit access token name over "token"', () => {
    expect(findAccessToken({ token: 'x', accessToken: 'a' }, undefined)?.field).toBe('accessToken');
  });

  it('uses a configured dotted path and nothing else', () => {
    expect(findAccessToken({ result: { bearer: 'a' }, accessToken: 'b' }, 'result.bearer')).toEqual({ value: 'a', field: 'result.bearer' });
    expect(findAccessToken({ accessToken: 'b' }, 'result.bearer')).toBeUndefined();
  });

  it('finds the action URL of a reset-password answer by its name, relative or not', () => {
    expect(findResetUrl({ message: 'ok', link: { href: 'https://acme.example.com/reset?x=1' } }, '', undefined)).toEqual({
      value: 'https://acme.example.com/reset?x=1',
      field: 'link.href',
    });
    // A relative action URL is found (and then fails the check), whatever other link the body holds.
    expect(findResetUrl({ actionUrl: '/reset?x=1' }, '', undefined)).toEqual({ value: '/reset?x=1', field: 'actionUrl' });
    expect(findResetUrl({ help: 'https://docs.example.com/help', actionUrl: '/reset?x=1' }, '', undefined)?.field).toBe('actionUrl');
    expect(findResetUrl({ links: { help: 'https://docs.example.com/help' }, resetLink: '/reset?x=1' }, '', undefined)?.field).toBe('resetLink');
    // No URL-named member: the first absolute URL anywhere (the contract's default).
    expect(findResetUrl({ data: ['see', 'https://acme.example.com/r?t=1'] }, '', undefined)?.value).toBe('https://acme.example.com/r?t=1');
    expect(findResetUrl(undefined, 'Go to https://a.example.com/r now', undefined)?.value).toBe('https://a.example.com/r');
  });

  it("a reset answer whose only URL is a self link or the call's own address has no action URL", () => {
    const own = 'https://acme.example.com/api/admin/users/a%40acme.example/reset-password';
    expect(findResetUrl({ _links: { self: { href: own } } }, '', undefined, own)).toBeUndefined();
    expect(findResetUrl({ links: { self: 'https://acme.example.com/r/1' } }, '', undefined, own)).toBeUndefined();
    expect(findResetUrl({ location: `${own}?x=1` }, '', undefined, own)).toBeUndefined();
    expect(findResetUrl(undefined, `See ${own} for the state`, undefined, own)).toBeUndefined();
    // Beside a self link, the action URL is found.
    const both = { _links: { self: { href: own }, action: { href: 'https://acme.example.com/reset?t=1' } } };
    expect(findResetUrl(both, '', undefined, own)).toEqual({ value: 'https://acme.example.com/reset?t=1', field: '_links.action.href' });
  });
});
