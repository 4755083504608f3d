/**
 * The redactor at its edges (src/harness/redactor.ts): each case pins down what a weaker redactor
 * would let through or shred, found by mutation testing (`npm run mutation`).
 */
import { describe, expect, it } from 'vitest';
import { isSecretMember, joinedLines, Redactor, secretForms, secretMembers } from '../../src/harness/redactor.js';

const TOKEN = 'tpat_Vq3xR8mZ2kL0pT7s';

describe('what a secret is (src/harness/redactor.ts)', () => {
  it('a member named like a secret, in any letter case, is one', () => {
    for (const name of ['access_token', 'Client_Secret', 'password', 'Authorization', 'api_key', 'apiKey', 'api-key', 'Cookie']) {
      expect(isSecretMember(name, 'x'), name).toBe(true);
    }
  });

  it('token_type, expires_in, an endpoint, a list of what is supported and a URL are no secret', () => {
    for (const name of ['token_type', 'Token_Type', 'tokenType', 'token_type_hint', 'expires_in', 'expiresIn', 'www-authenticate']) {
      expect(isSecretMember(name, 'x'), name).toBe(false);
    }
    expect(isSecretMember('token_endpoint', 'x')).toBe(false);
    expect(isSecretMember('revocation_endpoint_auth_methods_supported', 'x')).toBe(false);
    expect(isSecretMember('reset_token', 'https://acme.example/reset?t=1')).toBe(false);
    expect(isSecretMember('reset_token', 'see https://acme.example')).toBe(true);
    expect(isSecretMember('name', 'x')).toBe(false);
  });

  it('secret members are found at any depth, in arrays, and only as strings', () => {
    const body = { a: [{ access_token: 'at' }, 'x'], b: { c: { refreshToken: 'rt', token_type: 'Bearer' } }, secret: 5, n: null };
    expect(secretMembers(body)).toEqual([
      { name: 'access_token', value: 'at' },
      { name: 'refreshToken', value: 'rt' },
    ]);
    expect(secretMembers('access_token')).toEqual([]);
    expect(secretMembers(null)).toEqual([]);
  });
});

describe('the forms of a secret (src/harness/redactor.ts secretForms)', () => {
  it('a value of fewer than 8 characters has no hex or base64 forms; one of 8 has', () => {
    expect(secretForms('abcdefg')).toEqual(['abcdefg']);
    expect(secretForms('abcdefgh')).toContain(Buffer.from('abcdefgh').toString('hex'));
  });

  it('base64 and base64url at each of the three byte offsets, inside a longer encoded text', () => {
    const value = 'a?>~secret-value~<?z';
    const forms = secretForms(value);
    for (const before of ['', 'x', 'xy']) {
      const base64 = Buffer.from(`${before}${value}!!`).toString('base64');
      const base64url = Buffer.from(`${before}${value}!!`).toString('base64url');
      expect(
        forms.some((f) => f.length >= 20 && base64.includes(f)),
        `after ${before.length} byte(s)`,
      ).toBe(true);
      expect(
        forms.some((f) => f.length >= 20 && base64url.includes(f)),
        `base64url after ${before.length} byte(s)`,
      ).toBe(true);
    }
  });

  it('the encoded forms hold only characters that depend on the value', () => {
    const value = 'abcdefgh';
    for (const form of secretForms(value)) {
      for (const neighbour of ['A', 'z']) {
        const text = Buffer.from(`${neighbour}${value}${neighbour}`).toString('base64');
        const other = Buffer.from(`${neighbour === 'A' ? 'z' : 'A'}${value}${neighbour === 'A' ? 'z' : 'A'}`).toString('base64');
        if (text.includes(form) && form !== value) expect(other.includes(form), form).toBe(true);
      }
    }
  });

  it('no form is empty', () => {
    expect(secretForms('"')).not.toContain('');
  });

  it('lines are joined without the spaces and tabs around the break, CRLF too', () => {
    expect(joinedLines('ab \t\r\n\t cd\nef')).toBe('abcdef');
  });
});

describe('the redactor at its edges (src/harness/redactor.ts)', () => {
  it('nothing to register: no placeholder', () => {
    const r = new Redactor();
    expect(r.register('api-token', undefined)).toBeUndefined();
    expect(r.register('api-token', null)).toBeUndefined();
    expect(r.register('api-token', '')).toBeUndefined();
    expect(r.redact(TOKEN)).toBe(TOKEN);
  });

  it('a form shared with a secret registered earlier keeps the earlier placeholder', () => {
    const r = new Redactor();
    const first = r.register('api-token', 'a b');
    r.register('access-token', 'a+b');
    expect(r.redact('a+b')).toBe(first);
    expect(r.placeholderOf('a b')).toBe(first);
  });

  it('a value registered after the first redaction is found too', () => {
    const r = new Redactor();
    r.register('api-token', TOKEN);
    expect(r.redact('x')).toBe('x');
    const later = r.register('access-token', 'at_0123456789abcdef');
    expect(r.redact('at_0123456789abcdef.')).toBe(`${later}.`);
  });

  it('a secret run across lines is replaced where it stands, the rest kept', () => {
    const r = new Redactor();
    const p = r.register('api-token', TOKEN);
    expect(r.redact(`start ${TOKEN.slice(0, 9)}\n  ${TOKEN.slice(9)} end\nnext`)).toBe(`start ${p} end\nnext`);
    expect(r.redact(`a\n${TOKEN}\nb`)).toBe(`a\n${p}\nb`);
  });

  it('a short value is not looked for across lines', () => {
    const r = new Redactor();
    r.register('api-token', 'ab12');
    expect(r.redact('"ab\n12"')).toBe('"ab\n12"');
  });

  it("the user's own secrets are replaced anywhere from 4 characters, other short values only quoted", () => {
    const r = new Redactor();
    const partner = r.register('partner-secret', 'pw42');
    r.register('api-token', 'tk42');
    expect(r.redact('a pw42 b tk42 c')).toBe(`a ${partner} b tk42 c`);
    expect(r.redact("'tk42'")).toBe("'<api-token#1>'");
    expect(r.redact('"tk42\'')).toBe('"<api-token#1>\'');
    expect(r.redact('"tk42')).toBe('"tk42');
    const three = new Redactor();
    three.register('password', 'pw4');
    expect(three.redact('a pw4 b')).toBe('a pw4 b');
  });

  it('a value of exactly 8 characters is replaced anywhere', () => {
    const r = new Redactor();
    const p = r.register('api-token', 'ab12cd34');
    expect(r.redact('xab12cd34y')).toBe(`x${p}y`);
  });

  it('a placeholder-like text that is not one of its placeholders is redacted like any text', () => {
    const r = new Redactor();
    const p = r.register('api-token', 'abc<d>1234');
    expect(r.redact('<x abc<d>1234')).toBe(`<x ${p}`);
    expect(r.redact('<redacted> <api-token#7>')).toBe('<redacted> <api-token#7>');
  });

  it('output tack did not write: words of 16 or more token characters with a letter and a digit are masked', () => {
    const r = new Redactor();
    expect(r.redactOutput('id 0123456789012345 word abcdefghijklmnopq key abc123def456ghi7 short a1b2c3d4e5f6g7h')).toBe(
      'id 0123456789012345 word abcdefghijklmnopq key <masked> short a1b2c3d4e5f6g7h',
    );
    expect(r.redactOutput('x-y_z.w~v+u=t1234567')).toBe('<masked>');
  });

  it('secret headers: the public ones stay, the extra ones and the credential names are replaced', () => {
    const r = new Redactor();
    r.addSecretHeader('X-Partner-Key');
    expect(r.isSecretHeader('WWW-Authenticate')).toBe(false);
    expect(r.isSecretHeader('x-partner-key')).toBe(true);
    expect(r.isSecretHeader('X-Api-Key')).toBe(true);
    expect(r.isSecretHeader('Accept')).toBe(false);
    expect(r.redactHeaders({ a: undefined, 'set-cookie': ['s=1', 's=2'], accept: ['a', 'b'] })).toEqual({ 'set-cookie': '<redacted>', accept: 'a, b' });
  });

  it('a credential keeps its scheme and the placeholder of what it carries', () => {
    const r = new Redactor();
    const p = r.register('api-token', TOKEN);
    expect(r.redactHeaders({ authorization: `bearer ${TOKEN}` })).toEqual({ authorization: `bearer ${p}` });
    expect(r.redactHeaders({ authorization: 'Basic ' })).toEqual({ authorization: 'Basic ' });
    expect(r.redactHeaders({ authorization: `Basic ${TOKEN}:x` })).toEqual({ authorization: `Basic ${p}:x` });
    expect(r.redactHeaders({ authorization: 'Basic dXNlcjpwYXNz' })).toEqual({ authorization: 'Basic <redacted>' });
    expect(r.redactHeaders({ 'x-token': '' })).toEqual({ 'x-token': '' });
    expect(r.redactHeaders({ 'x-token': TOKEN })).toEqual({ 'x-token': p });
    expect(r.redactHeaders({ 'x-token': `v=${TOKEN}` })).toEqual({ 'x-token': `v=${p}` });
    expect(r.redactHeaders({ 'x-token': 'Token abc' })).toEqual({ 'x-token': '<redacted>' });
  });

  it('a body is read as JSON by its content type or its first character; broken JSON falls back to text', () => {
    const r = new Redactor();
    const p = r.register('api-token', TOKEN);
    expect(r.redactBody(' [{"access_token":"x"}]', undefined)).toBe('[{"access_token":"<redacted>"}]');
    expect(r.redactBody('{"note":"x"}', 'Application/JSON')).toBe('{"note":"x"}');
    expect(r.redactBody(`{"note":"${TOKEN}"`, 'application/json')).toBe(`{"note":"${p}"`);
    expect(r.redactBody(`note=${TOKEN}`, 'text/plain')).toBe(`note=${p}`);
  });

  it('a form body: secret fields replaced whole, others by value, names kept encoded', () => {
    const r = new Redactor();
    const p = r.register('api-token', TOKEN);
    expect(r.redactBody(`a+b=1&token=zzz&note=${TOKEN}&client_secret=${TOKEN}`, 'application/x-www-form-urlencoded; charset=utf-8')).toBe(
      `a%20b=1&token=<redacted>&note=${p}&client_secret=${p}`,
    );
  });

  it('JSON: strings redacted by value, secret members replaced, numbers and nulls kept', () => {
    const r = new Redactor();
    const p = r.register('api-token', TOKEN);
    expect(r.redactJson({ list: [TOKEN, 1, null], n: { password: 'x', count: 2 }, password: 7 })).toEqual({
      list: [p, 1, null],
      n: { password: '<redacted>', count: 2 },
      password: 7,
    });
    expect(r.redactJson(TOKEN)).toBe(p);
  });
});

describe('how a tampered secret differs (src/harness/redactor.ts editOf)', () => {
  const BASE = 'partner-secret-0123456789';

  it('the same value, an empty base or an unknown placeholder is no edit', () => {
    const r = new Redactor();
    const same = r.register('partner-secret', BASE)!;
    expect(r.editOf(same, BASE)).toBeUndefined();
    expect(r.editOf(same, '')).toBeUndefined();
    expect(r.editOf('<partner-secret#9>', BASE)).toBeUndefined();
  });

  it('up to 8 characters inserted is an edit, 9 are not', () => {
    const r = new Redactor();
    const eight = r.register('partner-secret-variant', `${BASE.slice(0, 5)}12345678${BASE.slice(5)}`)!;
    const nine = r.register('partner-secret-variant', `${BASE.slice(0, 5)}123456789${BASE.slice(5)}`)!;
    expect(r.editOf(eight, BASE)).toEqual({ kind: 'edited', keep: 5, insert: '12345678', resume: 5 });
    expect(r.editOf(nine, BASE)).toBeUndefined();
  });

  it('the first characters dropped is an edit; a value sharing nothing with the base is not', () => {
    const r = new Redactor();
    const tail = r.register('partner-secret-variant', BASE.slice(3))!;
    const other = r.register('partner-secret-variant', 'XY')!;
    expect(r.editOf(tail, BASE)).toEqual({ kind: 'edited', keep: 0, insert: '', resume: 3 });
    expect(r.editOf(other, BASE)).toBeUndefined();
  });

  it('a value equal to the base with its letter case flipped says so; digits stay', () => {
    const r = new Redactor();
    const flipped = r.register('partner-secret-variant', 'PARTNER-SECRET-0123456789')!;
    expect(r.editOf(flipped, BASE)).toEqual({ kind: 'case-flipped' });
  });

  it('a repeated character at the cut is counted once, from the start', () => {
    const r = new Redactor();
    const shorter = r.register('partner-secret-variant', 'aab')!;
    expect(r.editOf(shorter, 'aaab')).toEqual({ kind: 'edited', keep: 2, insert: '', resume: 3 });
  });
});
