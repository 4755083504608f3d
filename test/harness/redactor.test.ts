import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/harness/redactor.js';

describe('Redactor', () => {
  it('replaces a registered value with a stable placeholder, in every encoding', () => {
    const r = new Redactor();
    const token = 'abc+/=def ghi"x';
    const p = r.register('api-token', token);
    expect(p).toBe('<api-token#1>');
    expect(r.register('api-token', token)).toBe(p);
    expect(r.redact(`raw ${token}`)).toBe(`raw ${p}`);
    expect(r.redact(`form ${encodeURIComponent(token)}`)).toBe(`form ${p}`);
    expect(r.redact(`json ${JSON.stringify(token)}`)).toBe(`json "${p}"`);
    expect(r.redact(`plus ${new URLSearchParams({ v: token }).toString().slice(2)}`)).toBe(`plus ${p}`);
  });

  it('numbers tokens per kind so a reader can follow a chain', () => {
    const r = new Redactor();
    expect(r.register('api-token', 'first-token')).toBe('<api-token#1>');
    expect(r.register('api-token', 'second-token')).toBe('<api-token#2>');
    expect(r.register('access-token', 'access-1')).toBe('<access-token#1>');
  });

  it('replaces the longer of two overlapping secrets first', () => {
    const r = new Redactor();
    r.register('partner-secret', 'supersecret');
    r.register('partner-secret-variant', 'supersecretXYZ');
    expect(r.redact('a supersecretXYZ b supersecret')).toBe('a <partner-secret-variant#1> b <partner-secret#1>');
  });

  it('finds the longest value after redacting, whatever the order values were registered in', () => {
    const r = new Redactor();
    const short = r.register('api-token', 'ipt_0123456789abcdef');
    expect(r.redact('ipt_0123456789abcdef')).toBe(short); // the index now exists; later values join it
    const long = r.register('api-token', 'ipt_0123456789abcdefXYZ');
    const between = r.register('access-token', 'ipt_0123456789abcdefXY');
    expect(r.redact('a ipt_0123456789abcdefXYZ b ipt_0123456789abcdefXY c ipt_0123456789abcdef')).toBe(`a ${long} b ${between} c ${short}`);
    expect(r.redact(`kept ${long}, then "ab"`)).toBe(`kept ${long}, then "ab"`);
  });

  it('redacts credential headers and token fields even when never registered', () => {
    const r = new Redactor();
    r.addSecretHeader('X-Partner-Secret');
    expect(r.redactHeaders({ authorization: 'Bearer unknown-value', 'x-partner-secret': 'zzz', accept: 'json' })).toEqual({
      authorization: 'Bearer <redacted>',
      'x-partner-secret': '<redacted>',
      accept: 'json',
    });
    const body = r.redactBody(JSON.stringify({ access_token: 'a', nested: { refreshToken: 'b' }, token_type: 'Bearer', expires_in: 300 }), 'application/json');
    expect(JSON.parse(body)).toEqual({ access_token: '<redacted>', nested: { refreshToken: '<redacted>' }, token_type: 'Bearer', expires_in: 300 });
    expect(r.redactBody('grant_type=refresh_token&refresh_token=s3cr3t&client_id=payroll-portal', 'application/x-www-form-urlencoded')).toBe(
      'grant_type=refresh_token&refresh_token=<redacted>&client_id=payroll-portal',
    );
  });

  it('reads a JSON body as JSON whatever its content type: escapes cannot hide a token', () => {
    const r = new Redactor();
    r.register('refresh-token', 'ab/cd+ef-0123456789');
    const escaped = '{"access_token":"zz\\/yy","refresh_token":"ab\\/cd\\u002Bef-0123456789","note":"ab\\/cd+ef-0123456789"}';
    for (const type of ['text/plain', undefined, 'text/html']) {
      const out = r.redactBody(escaped, type);
      expect(out).not.toMatch(/ab.{0,2}\/cd|zz.{0,2}\/yy/);
      expect(JSON.parse(out)).toEqual({ access_token: '<redacted>', refresh_token: '<refresh-token#1>', note: '<refresh-token#1>' });
    }
  });

  it('keeps the placeholder of a known token in an Authorization header', () => {
    const r = new Redactor();
    r.register('access-token', 'eyJhbGciOi.x.y');
    expect(r.redactHeaders({ Authorization: 'Bearer eyJhbGciOi.x.y' })).toEqual({ Authorization: 'Bearer <access-token#1>' });
  });
});
