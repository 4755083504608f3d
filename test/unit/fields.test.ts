import { describe, expect, it } from 'vitest';
import { findAccessToken, findRefreshToken, findResetUrl } from '../../src/harness/clients/fields.js';

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

  it('finds the first absolute URL of a reset-password answer', () => {
    expect(findResetUrl({ message: 'ok', link: { href: 'https://acme.example.com/reset?x=1' } }, '', undefined)).toEqual({ value: 'https://acme.example.com/reset?x=1', field: 'link.href' });
    expect(findResetUrl({ actionUrl: '/reset?x=1' }, '', undefined)).toBeUndefined();
    expect(findResetUrl(undefined, 'Go to https://a.example.com/r now', undefined)?.value).toBe('https://a.example.com/r');
  });
});
