import { describe, expect, it } from 'vitest';
import { findAccessToken, findRefreshToken, findResetUrl, searchResetUrl } from '../../../src/harness/clients/fields.js';

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

  const own = 'http://acme.localhost:7391/api/admin/users/a%40acme.example/reset-password';
  const userResource = 'http://acme.localhost:7391/api/admin/users/a%40acme.example';

  it('a reset answer whose only URLs are a user link, a help page or a $schema has no action URL (false green)', () => {
    expect(searchResetUrl({ user: userResource }, '', undefined, own)).toEqual({ url: undefined });
    expect(searchResetUrl({ _links: { self: { href: own }, user: { href: userResource } } }, '', undefined, own)).toEqual({ url: undefined });
    expect(searchResetUrl({ status: 'queued', help: 'https://docs.example.com/password-reset' }, '', undefined, own)).toEqual({ url: undefined });
    const schema = { $schema: 'https://schemas.example.com/reset.json', message: 'reset e-mail sent' };
    expect(searchResetUrl(schema, '', undefined, own)).toEqual({ url: undefined });
    // An API address under an unnamed member is no action either; in plain text too.
    expect(searchResetUrl({ location: userResource }, '', undefined, own)).toEqual({ url: undefined });
    expect(searchResetUrl(undefined, `See ${userResource}`, undefined, own)).toEqual({ url: undefined });
  });

  it('a reset action URL is still found under href, url, data.attributes.link, _links.reset.href, a bare string or text', () => {
    const action = 'http://acme.localhost:7391/account/reset-password?token=t';
    expect(findResetUrl({ href: action }, '', undefined, own)?.field).toBe('href');
    expect(findResetUrl({ url: action, help: 'https://docs.example.com/x' }, '', undefined, own)?.field).toBe('url');
    expect(findResetUrl({ data: { type: 'reset', attributes: { link: action } } }, '', undefined, own)?.field).toBe('data.attributes.link');
    const hal = { _links: { self: { href: own }, user: { href: userResource }, reset: { href: action } } };
    expect(findResetUrl(hal, '', undefined, own)).toEqual({ value: action, field: '_links.reset.href' });
    expect(findResetUrl(action, '', undefined, own)).toEqual({ value: action, field: '(body)' });
    expect(findResetUrl(undefined, `${action}\n`, undefined, own)?.value).toBe(action);
    // Named for a reset, an API address is taken: the name says what it is.
    expect(findResetUrl({ resetUrl: 'http://acme.localhost:7391/api/reset?t=1' }, '', undefined, own)?.field).toBe('resetUrl');
    expect(findResetUrl({ user: userResource, x: action }, '', 'x', own)?.field).toBe('x');
  });

  it('several unnamed absolute URLs in a reset answer are ambiguous, not an action URL', () => {
    const body = { message: 'sent', a: 'https://one.example.com/r?t=1', b: 'https://two.example.com/r?t=2' };
    expect(searchResetUrl(body, '', undefined, own)).toEqual({ ambiguous: ['a', 'b'] });
    expect(searchResetUrl(undefined, 'https://one.example.com/a or https://two.example.com/b', undefined, own)).toEqual({ ambiguous: ['(body text)'] });
    // A URL named like an action settles it.
    expect(searchResetUrl({ ...body, actionUrl: 'https://one.example.com/r?t=1' }, '', undefined, own).url?.field).toBe('actionUrl');
  });
});
