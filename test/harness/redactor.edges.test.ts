/**
 * The redactor at its edges (src/harness/redactor.ts): each case pins down what a weaker redactor
 * would let through or shred, found by mutation testing (`npm run mutation`).
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { findSecret } from '../../src/checks/leaks.js';
import fc from 'fast-check';
import {
  bytesView,
  headerTexts,
  isSecretMember,
  joinedLines,
  numbersView,
  Redactor,
  secretForms,
  secretMembers,
  secretTexts,
  decimalView,
  escapesView,
  spacedView,
  tailsView,
  wholeDecodings,
} from '../../src/harness/redactor.js';

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

  it("the hex of a value's UTF-16LE bytes in upper case, as `xxd -u` dumps a .NET string, is a form", () => {
    expect(secretForms('jklmnopq')).toContain(Buffer.from('jklmnopq', 'utf16le').toString('hex').toUpperCase());
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

  it("a secret keeps its placeholder where a later secret's encoded form spells it", () => {
    const r = new Redactor();
    const plus = r.register('api-token', 'a+b');
    const space = r.register('access-token', 'a b');
    expect([r.redact('a+b'), r.redact('a b')]).toEqual([plus, space]);
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

/** `xxd`'s lines of `bytes` (`prefix` before each, offsets of `width` digits). */
function xxd(bytes: Buffer, { prefix = '', eol = '\n', width = 8 } = {}): string {
  const lines: string[] = [];
  for (let at = 0; at < bytes.length; at += 16) {
    const chunk = bytes.subarray(at, at + 16);
    const groups = (chunk.toString('hex').match(/.{1,4}/g) ?? []).join(' ').padEnd(39);
    lines.push(`${prefix}${at.toString(16).padStart(width, '0')}: ${groups}  ${chunk.toString('latin1')}`);
  }
  return lines.join(eol);
}

/** `hexdump -C`'s lines of `bytes`: no colon after the offset, two spaces before and in the middle, `|ASCII|`. */
function hexdumpC(bytes: Buffer): string {
  const lines: string[] = [];
  for (let at = 0; at < bytes.length; at += 16) {
    const chunk = bytes.subarray(at, at + 16);
    const pairs = [...chunk].map((b) => b.toString(16).padStart(2, '0'));
    lines.push(`${at.toString(16).padStart(8, '0')}  ${pairs.slice(0, 8).join(' ')}  ${pairs.slice(8).join(' ').padEnd(23)}  |${chunk.toString('latin1')}|`);
  }
  return lines.join('\n');
}

describe('a secret printed as tools print bytes (src/harness/redactor.ts bytesView)', () => {
  const token = 'eyJhbGciOiJSUzI1NiJ9.at-7f3a9c';
  const redactor = () => {
    const r = new Redactor();
    return { r, p: r.register('access-token', token)! };
  };

  it('a dumped secret leaves no piece of it in the ASCII column of its last line, and the text after it is kept', () => {
    const { r, p } = redactor();
    // Found by mutation testing: the last line's column kept "NiJ9.at-7f3a9c", half the token.
    expect(r.redact(`before ${xxd(Buffer.from(token))} after`)).toBe(`before 00000000: ${p} after`);
    expect(r.redact(`dump: ${xxd(Buffer.from(`xx${token}yy`))} end`)).toBe(`dump: 00000000: 7878 ${p}\n00000020: 7979${' '.repeat(37)}yy end`);
  });

  it('hexdump -C: offsets without a colon, two spaces between the groups, the column between bars', () => {
    const { r, p } = redactor();
    expect(r.redact(hexdumpC(Buffer.from(token)))).toBe(`00000000  ${p}|`);
  });

  it('a dump after a log prefix, with offsets of 4 digits, after a line of words, with CRLF line ends', () => {
    const { r, p } = redactor();
    expect(r.redact(xxd(Buffer.from(token), { prefix: 'dump ', width: 4 }))).toBe(`dump 0000: ${p}`);
    expect(r.redact(`hexdump of it:\n${xxd(Buffer.from(token))}`)).toBe(`hexdump of it:\n00000000: ${p}`);
    expect(r.redact(`${xxd(Buffer.from(token), { eol: '\r\n' })}\r\nnext`)).toBe(`00000000: ${p}\r\nnext`);
  });

  it('a dump without its ASCII column is replaced up to the last hex digit of the secret', () => {
    const { r, p } = redactor();
    const dump = xxd(Buffer.from(token)).replace(/ {2,}\S*$/gm, '');
    expect(r.redact(`${dump}\nend`)).toBe(`00000000: ${p}\nend`);
    expect(r.redact(`${dump.replaceAll('\n', '\r\n')}\r\nend`)).toBe(`00000000: ${p}\r\nend`);
  });

  it('what only looks like a dump line is read as text: words after the groups, an offset inside a word, a line of more than 400 characters', () => {
    expect(bytesView('at 0010: dead beef cafe babe not a dump')?.text).toBe('at 0010: deadbeefcafebabe not a dump');
    expect(bytesView('log>00000000: 7470\n')?.text).toBe('log>00000000: 7470');
    expect(bytesView('00000000: 7470\r6174\n')?.text).toBe('00000000: 7470\r6174');
    const dumped = ' 00000000: 7470 6174';
    expect(bytesView(`${'x'.repeat(400 - dumped.length)}${dumped}`)?.text).toBe('74706174');
    expect(bytesView(`${'x'.repeat(401 - dumped.length)}${dumped}`)?.text).toBe(`${'x'.repeat(401 - dumped.length)} 00000000: 74706174`);
    // The last line of a text ends without a line break, and is read whole.
    expect(bytesView('dump 00000000: 7470 6174')?.text).toBe('74706174');
  });

  it('a text with no break, escape or spaced hex has no view; secretTexts is then the text alone', () => {
    expect(bytesView('plain words, a 1b, ab 1')).toBeUndefined();
    expect(secretTexts('plain words')).toEqual(['plain words']);
    expect(secretTexts('ab\n cd')).toEqual(['ab\n cd', 'abcd']);
  });

  it('characters of two code units before a spelled secret (emoji in a log line) leave the replaced span where the secret stands', () => {
    const { r, p } = redactor();
    // A view counts code units, as the text does: counted as code points, each emoji would move the span one unit left.
    const spaced = [...Buffer.from(token)].map((b) => b.toString(16).padStart(2, '0')).join(' ');
    expect(r.redact(`🚀🚀🚀 bytes ${spaced} done`)).toBe(`🚀🚀🚀 bytes ${p} done`);
    expect(r.redact(`🚀 ${token.slice(0, 12)}\n${token.slice(12)} end`)).toBe(`🚀 ${p} end`);
  });

  it('a secret cut across lines at the end of a long page is replaced, the page kept', () => {
    const { r, p } = redactor();
    const page = Array.from({ length: 3000 }, (_, i) => `  <div class="row r${i}"><span>lorem ipsum dolor</span> 12, 34, 56 &amp; ${i}</div>`).join('\n');
    expect(r.redact(`${page}\n${token.slice(0, 9)}\n${token.slice(9)}`)).toBe(`${page}\n${p}`);
  });

  it('a secret cut across CRLF lines, spaces and tabs around the break, is replaced where it stands', () => {
    const { r, p } = redactor();
    expect(r.redact(`start ${token.slice(0, 12)} \t\r\n\t ${token.slice(12)} end`)).toBe(`start ${p} end`);
  });

  it('every byte %-escaped: the secret is replaced up to its last escape', () => {
    const { r, p } = redactor();
    const escaped = [...Buffer.from(token)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    expect(r.redact(`before ${escaped} after`)).toBe(`before ${p} after`);
  });

  it('two secrets cut across lines in one text are each replaced where they stand', () => {
    const { r, p } = redactor();
    const other = r.register('api-token', TOKEN)!;
    expect(r.redact(`a ${token.slice(0, 10)}\n${token.slice(10)} b ${TOKEN.slice(0, 10)}\n${TOKEN.slice(10)} c`)).toBe(`a ${p} b ${other} c`);
  });

  it('a value of exactly 8 characters is found across lines; a short one only quoted, never across lines', () => {
    const r = new Redactor();
    const p = r.register('api-token', 'ab12cd34');
    expect(r.redact('ab12\ncd34')).toBe(p);
    r.register('access-token', 'ef56');
    expect(r.redact('a line long enough "ef\n56"')).toBe('a line long enough "ef\n56"');
  });

  it('a placeholder cut across lines is kept as it is', () => {
    const r = new Redactor();
    r.register('api-token', TOKEN);
    expect(r.redact('see <api-\ntoken#1> above')).toBe('see <api-\ntoken#1> above');
  });
});

describe('the redactor at its edges, found by mutation testing (src/harness/redactor.ts)', () => {
  it('placeholders are kept when text is redacted again, even where a configured secret is a word of one (a password "token")', () => {
    const r = new Redactor();
    const p = r.register('password', 'token');
    expect(r.redact('<api-token#1> <api-token#12> <redacted> token')).toBe(`<api-token#1> <api-token#12> <redacted> ${p}`);
  });

  it("a webhook's endpoint_secret is a secret: only a name that ends in endpoint or supported is a place", () => {
    expect(isSecretMember('endpoint_secret', 'whsec_0123456789')).toBe(true);
  });

  it('the lower-case forms: base32 as lower-case encoders write it, %-escapes in lower case', () => {
    const value = 'a+b/c=d0123456789';
    const forms = secretForms(value);
    expect(forms).toContain('a%2bb%2fc%3dd0123456789');
    expect(forms).toContain(
      secretForms(value)
        .find((f) => /^[A-Z2-7]{20,}$/.test(f))!
        .toLowerCase(),
    );
  });

  it('Basic credentials after two spaces are decoded too', () => {
    const secret = 'ps+/0123=456789ab?cd';
    const r = new Redactor();
    r.register('partner-secret', secret);
    const encoded = Buffer.from(`id:${secret}`).toString('base64');
    expect(headerTexts(`Basic  ${encoded}`)).toContain(`id:${secret}`);
    expect(r.redactHeaders({ 'x-forwarded-auth': `Basic  ${encoded}` })).toEqual({ 'x-forwarded-auth': 'Basic  <redacted>' });
  });

  it('a credential: the scheme only at the start, its value to the end, after any spaces', () => {
    const r = new Redactor();
    const p = r.register('api-token', TOKEN);
    expect(r.redactHeaders({ authorization: `Bearer  ${TOKEN}` })).toEqual({ authorization: `Bearer ${p}` });
    expect(r.redactHeaders({ 'x-token': 'Token Bearer abc' })).toEqual({ 'x-token': '<redacted>' });
    expect(r.redactJson({ access_token: 'Bearer abc\ndef' })).toEqual({ access_token: '<redacted>' });
  });

  it('token_type is no secret header', () => {
    expect(new Redactor().isSecretHeader('token_type')).toBe(false);
  });

  it('a text body is kept as written, even one that parses as JSON', () => {
    const r = new Redactor();
    r.register('api-token', TOKEN);
    expect(r.redactBody(' 42 ', 'text/plain')).toBe(' 42 ');
    expect(r.redactBody('"see {\\u0041}"', 'text/plain')).toBe('"see {\\u0041}"');
  });

  it('a longer value registered before a shorter one that begins alike is still found whole', () => {
    const r = new Redactor();
    const long = r.register('api-token', 'ipt_0123456789abcdefXYZ');
    const short = r.register('api-token', 'ipt_0123456789abcdef');
    expect(r.redact('ipt_0123456789abcdefXYZ ipt_0123456789abcdef')).toBe(`${long} ${short}`);
  });

  it('an edit: characters kept on both sides of the insert, as many on each, and a base shorter than the value', () => {
    const r = new Redactor();
    const inserted = r.register('partner-secret-variant', 'abXYcd')!;
    const longer = r.register('partner-secret-variant', 'aaab')!;
    expect(r.editOf(inserted, 'abcd')).toEqual({ kind: 'edited', keep: 2, insert: 'XY', resume: 2 });
    expect(r.editOf(longer, 'aab')).toEqual({ kind: 'edited', keep: 2, insert: 'a', resume: 2 });
  });
});

/**
 * Spellings an adversary found the redactor missed (each rebuilt a whole access token from the redacted
 * reports while CLIENT-SECRETS-NOT-LOGGED passed), written as the tools write them.
 */
describe('a token printed as an adversary printed it (src/harness/redactor.ts views)', () => {
  const access = 'at1.s.u1._.mwzb08sc.1.2SzG0DbRJsiUYU9vXvVCrmt_jmhrSbD8tND_L7EJuMo';
  const bytes = Buffer.from(access);
  const column = (row: Buffer) => row.toString('latin1').replace(/[^ -~]/g, '.');
  const dump = (buf: Buffer, { cols = 16, group = 2, le = false } = {}) => {
    const lines: string[] = [];
    for (let at = 0; at < buf.length; at += cols) {
      const row = buf.subarray(at, at + cols);
      const groups: string[] = [];
      for (let g = 0; g < row.length; g += group) {
        const part = Buffer.from(row.subarray(g, g + group));
        groups.push((le ? part.reverse() : part).toString('hex'));
      }
      lines.push(`${at.toString(16).padStart(8, '0')}: ${groups.join(' ').padEnd(cols * 2 + Math.ceil(cols / group) - 1)}  ${column(row)}`);
    }
    return `${lines.join('\n')}\n`;
  };
  const words16 = (buf: Buffer) => {
    const lines: string[] = [];
    for (let at = 0; at < buf.length; at += 16) {
      const words: string[] = [];
      for (let i = at; i < Math.min(at + 16, buf.length); i += 2) words.push(((buf[i + 1] ?? 0) * 256 + buf[i]!).toString(16).padStart(4, '0'));
      lines.push(`${at.toString(16).padStart(6, '0')} ${words.join(' ')}`);
    }
    return `${lines.join('\n')}\n${buf.length.toString(16).padStart(6, '0')}\n`;
  };
  const odc = (buf: Buffer) => {
    const lines: string[] = [];
    for (let at = 0; at < buf.length; at += 16) {
      lines.push(`${at.toString(8).padStart(7, '0')} ${[...buf.subarray(at, at + 16)].map((b) => String.fromCharCode(b).padStart(3)).join(' ')}`);
    }
    return `${lines.join('\n')}\n${buf.length.toString(8).padStart(7, '0')}\n`;
  };
  const prefixed = (prefix: string, text: string) =>
    `${text
      .match(/.{1,12}/g)!
      .map((l) => prefix + l)
      .join('\n')}\n`;
  const hexArray = [...bytes].map((b) => `0x${b.toString(16).padStart(2, '0')}`);
  /** The request a client sends, the token in its Authorization header: in a dump it starts mid-row, and the row it ends in goes on with the Accept header. */
  const request = Buffer.from(`GET /api/businesses/search HTTP/1.1\r\nHost: 127.0.0.1:38999\r\nAuthorization: Bearer ${access}\r\nAccept: */*\r\n\r\n`);
  const hex4 = (n: number) => n.toString(16).padStart(4, '0');
  const hex8 = (n: number) => n.toString(16).padStart(8, '0');
  const pairs = (row: Buffer) => [...row].map((b) => b.toString(16).padStart(2, '0')).join(' ');
  const rows = (buf: Buffer, line: (at: number, row: Buffer) => string) => {
    const out: string[] = [];
    for (let at = 0; at < buf.length; at += 16) out.push(line(at, buf.subarray(at, at + 16)));
    return `${out.join('\n')}\n`;
  };

  /** No 8-character piece of the token, raw or as hex (spaces, colons, dashes, bars, `0x`, `\x` and colours taken out). */
  const pieces = (text: string): string[] => {
    const found: string[] = [];
    const squashed = text
      .replace(/\x1b\[[0-9;]*m/g, '')
      .replace(/0x|\\x|[\s,:\-|>]/g, '')
      .toLowerCase();
    const hex = bytes.toString('hex');
    for (let i = 0; i + 8 <= access.length; i++) if (text.includes(access.slice(i, i + 8))) found.push(access.slice(i, i + 8));
    for (let i = 0; i + 16 <= hex.length; i += 2) if (squashed.includes(hex.slice(i, i + 16))) found.push(hex.slice(i, i + 16));
    return found;
  };
  const cases: [string, string][] = [
    ['xxd -e -c 8: little-endian words, the ASCII column 8 characters a line', dump(bytes, { cols: 8, group: 4, le: true })],
    ['xxd -e: little-endian words, the ASCII column 16 characters a line', dump(bytes, { group: 4, le: true })],
    ['xxd -g0 -c 8: one group of 16 hex digits a line', dump(bytes, { cols: 8, group: 8 })],
    ['xxd -g0: one group of 32 hex digits a line', dump(bytes, { group: 16 })],
    ['xxd with ANSI colours around each group', dump(bytes).replace(/([0-9a-f]{4}) /g, '\x1b[32m$1\x1b[0m ')],
    ['the raw token cut into 12-character lines behind a log prefix', prefixed('[w1] ', access)],
    ['base64 of the token wrapped at 12 characters behind a timestamp', prefixed('2026-11-27T18:10:04.123Z DEBUG ', bytes.toString('base64'))],
    ['\\x escapes', `debug: access token "${[...bytes].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('')}"\n`],
    ['a C array (xxd -i)', `unsigned char token[] = {\n  ${hexArray.join(', ')}\n};\n`],
    ['od -c', odc(bytes)],
    ['decimal bytes (a Uint8Array inspected)', `debug: access token Uint8Array(${bytes.length}) [\n  ${[...bytes].join(', ')}\n]\n`],
    ['od -x and hexdump: 16-bit little-endian words', words16(bytes)],
    [
      "two workers' xxd dumps interleaved line by line, each line behind its worker's prefix",
      dump(bytes)
        .split('\n')
        .filter((l) => l !== '')
        .flatMap((l, n) => [`[w1] ${l}`, `[w2] ${dump(Buffer.from('payroll sync finished: 3 businesses, 0 errors; config ok')).split('\n')[n] ?? ''}`])
        .join('\n'),
    ],
    [
      'the raw token cut into lines, each behind a timestamp of its own',
      `${access
        .match(/.{1,12}/g)!
        .map((l, n) => `2026-11-27T18:10:0${n}.12${n}Z DEBUG [http] ${l}`)
        .join('\n')}\n`,
    ],
    [
      'the raw token cut into lines ended by a lone CR (a progress line written over)',
      `${access
        .match(/.{1,12}/g)!
        .map((l) => `[w1] ${l}`)
        .join('\r')}\r`,
    ],
    [
      'the raw token cut into quoted pieces, one a line',
      `${access
        .match(/.{1,12}/g)!
        .map((l) => `[w1] "${l}"`)
        .join('\n')}\n`,
    ],
    [
      "two workers' lines interleaved, each line stamped with its own time",
      `${access
        .match(/.{1,12}/g)!
        .flatMap((l, n) => [`2026-11-27T18:10:0${n}.00${n}Z DEBUG [w1] ${l}`, `2026-11-27T18:10:0${n}.00${n + 3}Z DEBUG [w2] search page ${n} ok`])
        .join('\n')}\n`,
    ],
    ['UTF-16LE hex, and an xxd dump of the UTF-16LE bytes', `${Buffer.from(access, 'utf16le').toString('hex')}\n${dump(Buffer.from(access, 'utf16le'))}`],
    ['\\u escapes (a JSON or JavaScript string)', `debug: "${[...bytes].map((b) => `\\u${b.toString(16).padStart(4, '0')}`).join('')}"\n`],
    ['octal escapes', `debug: "${[...bytes].map((b) => `\\${b.toString(8).padStart(3, '0')}`).join('')}"\n`],
    [
      'HTML character references, decimal and hex',
      `<p>${[...bytes].map((b) => `&#${b};`).join('')}</p>\n<p>${[...bytes].map((b) => `&#x${b.toString(16)};`).join('')}</p>\n`,
    ],
    ["Python's list of quoted hex strings", `${JSON.stringify(hexArray).replace(/"/g, "'")}\n`],
    ["Go's byte slice printed, [97 116 ...]", `debug: access token [${[...bytes].join(' ')}]\n`],
    [
      'dash-separated hex, lower and upper case',
      `${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('-')}\n${bytes.toString('hex').toUpperCase().match(/../g)!.join('-')}`,
    ],
    ['written backwards', `debug: ${[...access].reverse().join('')}\n`],
    ['UTF-16BE hex after a byte-order mark', `debug: feff${Buffer.from(access, 'utf16le').swap16().toString('hex')}\n`],
    ['UTF-16BE hex in upper case', `debug: ${Buffer.from(access, 'utf16le').swap16().toString('hex').toUpperCase()}\n`],
    ['base64 of the UTF-16LE bytes', `debug: ${Buffer.from(access, 'utf16le').toString('base64')}\n`],
    ['base64url of the UTF-16LE bytes after two characters (4 bytes)', `debug: ${Buffer.from(`ab${access}`, 'utf16le').toString('base64url')}\n`],
    ['base64 of the UTF-16LE bytes after a byte-order mark (2 bytes)', `debug: ${Buffer.from(`\ufeff${access}`, 'utf16le').toString('base64')}\n`],
    ['characters apart, a space between two', `debug: ${[...access].join(' ')}\n`],
    [
      'od -t d1: decimal bytes, 16 a line, behind octal offsets',
      `${access
        .match(/.{1,16}/g)!
        .map((row, n) => `${(n * 16).toString(8).padStart(7, '0')}${[...Buffer.from(row)].map((b) => String(b).padStart(5)).join('')}`)
        .join('\n')}\n${bytes.length.toString(8).padStart(7, '0')}\n`,
    ],
    [
      'od -A x -t u1: decimal bytes behind hex offsets',
      `${access
        .match(/.{1,16}/g)!
        .map((row, n) => `${(n * 16).toString(16).padStart(6, '0')}${[...Buffer.from(row)].map((b) => String(b).padStart(4)).join('')}`)
        .join('\n')}\n`,
    ],
    [
      'decimal bytes spaced, folded at 40 characters in the middle of numbers',
      `${[...bytes]
        .join(' ')
        .match(/.{1,40}/g)!
        .join('\n')}\n`,
    ],
    [
      'decimal bytes, a comma between two, folded at 40 characters',
      `${[...bytes]
        .join(',')
        .match(/.{1,40}/g)!
        .join('\r\n')}\r\n`,
    ],
    ['named HTML references for some characters', `<code>${access.replace(/\./g, '&period;').replace(/_/g, '&lowbar;')}</code>\n`],
    ['numeric HTML references for some characters, decimal and hex', `<p>${access.replace(/\./g, '&#46;').replace(/_/g, '&#x5F;')}</p>\n`],
    ['quoted-printable: soft line breaks every 20 characters', `${access.match(/.{1,20}/g)!.join('=\n')}\n`],
    [
      'quoted-printable: every dot escaped, soft CRLF breaks',
      `${access
        .replace(/\./g, '=2E')
        .match(/.{1,20}/g)!
        .join('=\r\n')}\r\n`,
    ],
    ['cut in two, a line of another between the halves', `token part 1: ${access.slice(0, 33)}\nwaiting for search...\ntoken part 2: ${access.slice(33)}\n`],
    ['a JSON array of its pieces', `${JSON.stringify(access.match(/.{1,16}/g), null, 2)}\n`],
    ['a list of its characters as Node prints it, over lines', `debug: ${inspect([...access])}\n`],
    ['a list of its characters as Python prints it, and as JSON', `${`[${[...access].map((c) => `'${c}'`).join(', ')}]`}\n${JSON.stringify([...access])}\n`],
    // Round three's adversary: dumps whose ASCII column follows the last byte after a single space, or between bars.
    ['curl --trace: 16 bytes a row, the column after one space', rows(request, (at, row) => `${hex4(at)}: ${pairs(row).padEnd(48)}${column(row)}`)],
    [
      'curl --trace rows behind a log prefix of several words',
      rows(request, (at, row) => `2026-11-27T21:00:00Z DEBUG [curl] ${hex4(at)}: ${pairs(row).padEnd(48)}${column(row)}`),
    ],
    [
      "Netty's prettyHexDump behind reactor-netty's logger prefix",
      rows(
        request,
        (at, row) =>
          `21:00:00.123 [reactor-http-epoll-2] DEBUG r.n.http.client.HttpClient - |${hex8(at)}| ${pairs(row).padEnd(47)} |${column(row).padEnd(16)}|`,
      ),
    ],
    [
      "Netty's prettyHexDump (a WebClient wiretap): the offset and the column between bars",
      rows(request, (at, row) => `|${hex8(at)}| ${pairs(row).padEnd(47)} |${column(row).padEnd(16)}|`),
    ],
    ["Wireshark's Copy as Hex + ASCII: three spaces after the offset", rows(request, (at, row) => `${hex4(at)}   ${pairs(row).padEnd(47)}   ${column(row)}`)],
    ["Java's Arrays.toString of its characters, and JavaScript's String of them", `chars: [${[...access].join(', ')}]\njs: ${[...access].join(',')}\n`],
    ['its characters a tab apart, and two spaces apart', `${[...access].join('\t')}\n${[...access].join('  ')}\n`],
    ['Markdown-escaped (MarkdownV2: a backslash before each . _ -)', `token: ${access.replace(/[._-]/g, (c) => `\\${c}`)}\n`],
    [
      'break hints inside it: <wbr>, soft hyphens, zero-width spaces',
      ['<wbr>', '&shy;', '\u00ad', '\u200b'].map((hint) => `${access.match(/.{1,10}/g)!.join(hint)}\n`).join(''),
    ],
    [
      "commons-io's HexDump: upper case, the column after one space, the last row not padded",
      rows(request, (at, row) => `${hex8(at).toUpperCase()} ${pairs(row).toUpperCase()} ${column(row)}`),
    ],
  ];
  for (const [name, text] of cases) {
    it(`${name}: the judge sees the token and the redacted output holds no piece of it`, () => {
      expect(findSecret(text, [{ value: access, kind: 'an access token' }])?.kind).toBe('an access token');
      const r = new Redactor();
      r.register('access-token', access);
      const out = r.redactOutput(text);
      expect(out).toContain('<access-token#1>');
      expect(pieces(out)).toEqual([]);
    });
  }

  it('text that is no secret is kept as it was, dumped, cut into lines or as bytes', () => {
    const r = new Redactor();
    r.register('access-token', access);
    const words = 'payroll sync finished: 3 businesses, 0 errors; config /etc/payroll.conf loaded ok';
    for (const text of [
      dump(Buffer.from(words)),
      dump(Buffer.from(words), { group: 4, le: true }),
      prefixed('[w1] ', words),
      odc(Buffer.from(words)),
      `[${[...Buffer.from(words)].join(', ')}]`,
      `timings ms: ${[...bytes.subarray(0, 12)].join(', ')}\nstatus codes: 200, 401, 200, 403\n`,
      `${[...Buffer.from(words)]
        .join(' ')
        .match(/.{1,40}/g)!
        .join('\n')}\n`,
      `debug: ${[...words].join(' ')}\n`,
      `<p>Acme &amp; Co.&nbsp;&#39;payroll&#39; &period; sync</p>\nsubject: =?utf-8?Q?payroll=20sync?= done=\nnext line\n`,
      `token part 1: ${access.slice(0, 20)}\nwaiting for search...\ntoken part 2: ${access.slice(-20)}\n`,
      `debug: ${[...access.slice(0, 30)].reverse().join('')}\n`,
    ]) {
      expect(r.redact(text)).toBe(text);
      expect(findSecret(text, [{ value: access, kind: 'an access token' }])).toBeUndefined();
    }
  });
});

describe('the last word of each line (src/harness/redactor.ts tailsView)', () => {
  /** The pattern tailsView read each line with before it was read back from the end: the oracle. */
  const byPattern = (text: string) =>
    text
      .split(/\r\n?|\n/)
      .map((line) => /["'`]?([^\s"'`]+)["'`]?,?\s*$/.exec(line)?.[1] ?? '')
      .join('');

  it('reads each line as the end-anchored pattern does: quotes and a comma after a quote left out, a bare comma kept', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('x', 'y', '"', "'", '`', ',', ' ', '\t', '\u00a0', '\n'), { maxLength: 24 }), (chars) => {
        const text = `${chars.join('')}\nz`;
        expect(tailsView(text)!.text).toBe(byPattern(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('a line of half a megabyte without a space, a quote near its end, is read in one pass', () => {
    const line = `<img src="data:image/png;base64,${'A'.repeat(500_000)}"> end`;
    expect(tailsView(`${line}\nnext`)!.text).toBe('endnext');
  });
});

describe('the views added for the second adversary, at their edges (src/harness/redactor.ts)', () => {
  it('characters apart: eight or more, each alone between one or two spaces or a tab, or between commas, read together', () => {
    const view = spacedView('xx a b c d e f g h yy')!;
    expect(view.text).toBe('abcdefgh');
    expect([...view.from]).toEqual([3, 5, 7, 9, 11, 13, 15, 17]);
    expect([...view.to]).toEqual([4, 6, 8, 10, 12, 14, 16, 18]);
    expect(spacedView('a b c d e f g h\ni j k l m n o p')?.text).toBe('abcdefgh\nijklmnop');
    expect(spacedView('a  b  c  d e\tf g h')?.text).toBe('abcdefgh');
    const listed = spacedView('chars: [a, b, c, d, e, f, g, h] then a,b,c,d,e,f,g,h.')!;
    expect(listed.text).toBe('abcdefgh');
    expect([listed.from[0], listed.to[0], listed.from[1]]).toEqual([8, 9, 11]);
    // Not a list of characters: a word among them, a quote, the list run into a word.
    for (const text of ['[a, b, c, dd, e, f, g, h]', 'xy,a,b,c,d,e,f,g,h', 'a,b,c,d,e,f,g,"h"']) expect(spacedView(text)).toBeUndefined();
    const quoted = spacedView(`x = ['a', 'b',\n  'c', 'd', 'e', 'f', 'g', 'h'] and ["i","j","k","l","m","n","o","p"]`)!;
    expect(quoted.text).toBe('abcdefgh\nijklmnop');
    expect([quoted.from[0], quoted.to[0], quoted.from[2], quoted.to[2]]).toEqual([6, 7, 18, 19]);
    for (const text of [
      'a b c d e f g',
      'a b c d   e f g h',
      'xa b c d e f g h',
      'a b c d e f g hx',
      'a\nb\nc\nd\ne\nf\ng\nh',
      `'a', 'b', 'c', 'd', 'e', 'f', 'g'`,
      `'a', 'b', 'c', 'd', "e", 'f', 'g', 'h'`,
      `'a', 'b', 'c', 'd', 'ee', 'f', 'g', 'h'`,
      `'a', 'b', 'c', 'd' 'e', 'f', 'g', 'h'`,
    ]) {
      expect(spacedView(text), JSON.stringify(text)).toBeUndefined();
    }
  });

  it('decimal bytes: eight or more in a row, spaces and commas between, over lines and od offsets', () => {
    expect(decimalView('bytes 97 116 49 46 115 46 117 49 end')?.text).toBe('at1.s.u1');
    expect(decimalView('97,116, 49 ,46,\n115\n, 46\t117  49')?.text).toBe('at1.s.u1');
    expect(decimalView('0000000   97  116   49   46\n0000004  115   46  117   49\n0000010\n')?.text).toBe('at1.s.u1');
    expect(decimalView('000000  97 116  49  46\r\n000004 115  46 117  49')?.text).toBe('at1.s.u1');
    expect(decimalView('97 116 49 46 115 46 117')).toBeUndefined();
    expect(decimalView('1097 116 49 46 115 46 117 49')).toBeUndefined();
    expect(decimalView('97 116 49 46 115 46 117 4900')).toBeUndefined();
    expect(decimalView('97 116 49 46 115 46 117 49 x 1 2 3 4 5 6 7 8')?.text).toBe('at1.s.u1\n\x01\x02\x03\x04\x05\x06\x07\x08');
  });

  it('decimal bytes folded in the middle of a number read whole, a number that is no byte as a replacement character', () => {
    expect(decimalView('97 116 4\n9 46 11\r\n5 46 1\n1\n7 49')?.text).toBe('at1.s.u1');
    expect(decimalView('97 116 49 46 115 46 255 256')?.text).toBe('at1.s.\u00ff\ufffd');
    const view = decimalView('x 97 116 4\n9 46 115 46 117 49')!;
    expect([view.from[2], view.to[2]]).toEqual([9, 12]);
  });

  it('HTML references: every named one for the ASCII punctuation, numeric ones, an unknown name kept as written', () => {
    const named: [string, string][] = [
      ['amp', '&'],
      ['lt', '<'],
      ['gt', '>'],
      ['quot', '"'],
      ['apos', "'"],
      ['period', '.'],
      ['lowbar', '_'],
      ['plus', '+'],
      ['sol', '/'],
      ['equals', '='],
      ['colon', ':'],
      ['comma', ','],
      ['semi', ';'],
      ['excl', '!'],
      ['quest', '?'],
      ['num', '#'],
      ['dollar', '$'],
      ['percnt', '%'],
      ['ast', '*'],
      ['commat', '@'],
      ['lpar', '('],
      ['rpar', ')'],
      ['lsqb', '['],
      ['rsqb', ']'],
      ['lcub', '{'],
      ['rcub', '}'],
      ['verbar', '|'],
      ['bsol', '\\'],
      ['Hat', '^'],
      ['grave', '`'],
    ];
    for (const [name, char] of named) expect(escapesView(`x&${name};y`)?.text, name).toBe(`x${char}y`);
    expect(escapesView('a&#46;b&#x5f;c&#X5F;d&#1114111;e&#9999999;f')?.text).toBe('a.b_c_d\u{10ffff}e\ufffdf');
    expect(escapesView('a&nbsp;b&period;c')?.text).toBe('a&nbsp;b.c');
    expect(escapesView('plain text, no escape')).toBeUndefined();
  });

  it('a backslash before punctuation (Markdown), and break hints that show nothing, are taken out', () => {
    expect(escapesView('at1\\.s\\_u1\\-x\\!y\\~z\\\\w')?.text).toBe('at1.s_u1-x!y~z\\w');
    expect(escapesView('a\\xb \\n')).toBeUndefined();
    const view = escapesView('at1<wbr>.s<wbr/>.u1&shy;_x\u00ady\u200bz\u200dq\u2060r\ufeffs')!;
    expect(view.text).toBe('at1.s.u1_xyzqrs');
    // A hint stands for nothing: the character after it keeps its own span.
    expect([view.from[3], view.to[3]]).toEqual([8, 9]);
  });

  it('quoted-printable: =XX in either case, soft line breaks after LF and CRLF', () => {
    expect(escapesView('at1=2Es=2eu1=\n._.mw=\r\nzc end')?.text).toBe('at1.s.u1._.mwzc');
  });

  it('the escapes view reads only the words holding an escape, from the start of the text to its end', () => {
    expect(escapesView('&period;ab cd')?.text).toBe('.ab');
    expect(escapesView('x<a&period;b>y "c&period;d" \'e&period;f\' `g&period;h` i&period;j\tk')?.text).toBe('a.b\nc.d\ne.f\ng.h\ni.j');
    const view = escapesView('one t&period;o')!;
    expect(view.text).toBe('t.o');
    expect([...view.from]).toEqual([4, 5, 13]);
    expect([...view.to]).toEqual([5, 13, 14]);
  });

  it('by prefix with numbers made one: lines of one counter read together, another line between apart; no such lines, no view', () => {
    expect(tailsView('part 1: abc\nwait: x\npart 2: def\n', 'loose')?.text).toBe('abcdef\nx');
    expect(tailsView('[w1] abc\n[w2] x\n[w1] def\n', true)?.text).toBe('abcdef\nx');
    expect(tailsView('part 1: abc\nwait: x\npart 2: def\n', true)?.text).toBe('abc\nx\ndef');
    expect(tailsView('part a: abc\nwait: x\npart b: def\n', 'loose')).toBeUndefined();
    expect(tailsView('part 9: abc\nwait: x\npart 10: def\n', 'loose')?.text).toBe('abcdef\nx');
    expect(tailsView('w1: abc\nwait: x\nw: def\n', 'loose')).toBeUndefined();
  });

  it("a secret that the second writer's lines spell before the first writer's is replaced too (spans in text order)", () => {
    const first = 'at1.s.u1._.mwzb08sc.1.2SzG0DbRJsiUYU9vX';
    const second = 'tpat_Vq3xR8mZ2kL0pT7sQ9wE4rT6yU8iO0pA';
    const r = new Redactor();
    r.register('access-token', first);
    r.register('api-token', second);
    const text = [
      '[w1] hello',
      `[w2] ${second.slice(0, 20)}`,
      '[w1] x',
      `[w2] ${second.slice(20)}`,
      `[w1] ${first.slice(0, 20)}`,
      '[w2] y',
      `[w1] ${first.slice(20)}`,
    ].join('\n');
    const out = r.redact(text);
    expect(out).toContain('<api-token#1>');
    expect(out).toContain('<access-token#1>');
    expect(out.startsWith('[w1] hello\n[w2] <api-token#1>')).toBe(true);
  });

  it('the turned forms: backwards, UTF-16BE hex in both cases, base64 and base64url of the UTF-16LE bytes', () => {
    const value = 'ab?>~cd+/';
    const forms = secretForms(value);
    const wide = Buffer.from(value, 'utf16le');
    expect(forms).toContain('/+dc~>?ba');
    expect(forms).toContain(Buffer.from(wide).swap16().toString('hex'));
    expect(forms).toContain(Buffer.from(wide).swap16().toString('hex').toUpperCase());
    expect(forms).toContain(wide.toString('base64'));
    expect(forms).toContain(wide.toString('base64url'));
    expect(forms.some((f) => f.length >= 20 && Buffer.from(`xx${value}`, 'utf16le').toString('base64url').includes(f))).toBe(true);
  });
});

describe('the index of registered values (src/harness/redactor.ts SecretIndex)', () => {
  it('a value of one character is found between quotes whatever follows, next to longer values beginning alike', () => {
    const r = new Redactor();
    r.register('secret', 'x');
    r.register('access-token', 'xq3ZkT9pLm2v');
    expect(r.redact(`say "x" and 'x', not x or xy; "xq3ZkT9pLm2v" and xq3ZkT9pLm2v.`)).toBe(
      `say "<secret#1>" and '<secret#1>', not x or xy; "<access-token#1>" and <access-token#1>.`,
    );
    const alone = new Redactor();
    alone.register('secret', 'y');
    expect(alone.redact(`say "y", not y`)).toBe(`say "<secret#1>", not y`);
  });

  it('a value is found at the very end of a text, and where only its first two characters tell it from the words around', () => {
    const r = new Redactor();
    r.register('access-token', 'tpat_Vq3xR8mZ2kL0pT7s');
    const reversed = [...'tpat_Vq3xR8mZ2kL0pT7s'].reverse().join('');
    expect(r.redact(`s7Tp sa s7 ${reversed}`)).toBe('s7Tp sa s7 <access-token#1>');
  });
});

/** Each character of a view with the piece of `text` it stands for; undefined for no view. */
function spansOf(text: string, view: { text: string; from: Int32Array; to: Int32Array } | undefined): [string, string][] | undefined {
  if (view === undefined) return undefined;
  expect([view.from.length, view.to.length]).toEqual([view.text.length, view.text.length]);
  return [...view.text].map((c, k) => [c, text.slice(view.from[k], view.to[k])]);
}

describe('a text read whole as an encoding (src/harness/redactor.ts wholeDecodings)', () => {
  it('base64, hex in either case and base32 in either case, with or without padding, decode to the value', () => {
    expect(wholeDecodings('c2VjcmV0LXZhbHVl')).toEqual(['secret-value']);
    expect(wholeDecodings('6a6b6c6d6e6f7071')).toContain('jklmnopq');
    expect(wholeDecodings('6A6B6C6D6E6F7071')).toContain('jklmnopq');
    expect(wholeDecodings('NJVWY3LON5YHC===')).toEqual(['jklmnopq']);
    expect(wholeDecodings('njvwy3lon5yhc===')).toEqual(['jklmnopq']);
    expect(wholeDecodings('NJVWY3LON5YHC=')).toContain('jklmnopq');
    // Five bytes are eight characters: the last byte is complete at the last character.
    expect(wholeDecodings('MFRGGZDF')).toContain('abcde');
  });

  it('a text with anything but the encoding before, inside or after it is no encoding: a piece is not the value', () => {
    for (const text of ['not base64!', '.6a6b', '6a6b.', '.6A6B', '6A6B.', 'NJVW=Y3LON5YHC', '.NJVWY3LO', 'NJVWY3LO.', '.njvwy3lo', 'njvwy3lo.']) {
      expect(wholeDecodings(text), text).toEqual([]);
    }
  });

  it('hex in mixed case, or of an odd length, is no hex', () => {
    expect(wholeDecodings('6a6B')).not.toContain('jk');
    expect(wholeDecodings('6162636')).not.toContain('abc');
  });
});

describe('bytes written as numbers (src/harness/redactor.ts numbersView)', () => {
  it('each spelling decodes to its characters, each standing where its number is, the text around kept', () => {
    const cases: [string, [string, string][]][] = [
      [
        'x \\x61\\x62\\x63\\x64 y',
        [
          ['x', 'x'],
          [' ', ' '],
          ['a', '\\x61'],
          ['b', '\\x62'],
          ['c', '\\x63'],
          ['d', '\\x64'],
          [' ', ' '],
          ['y', 'y'],
        ],
      ],
      [
        '\\u0061\\u0062\\u4e2d\\u0064',
        [
          ['a', '\\u0061'],
          ['b', '\\u0062'],
          ['中', '\\u4e2d'],
          ['d', '\\u0064'],
        ],
      ],
      [
        '\\141\\142\\143\\377 z',
        [
          ['a', '\\141'],
          ['b', '\\142'],
          ['c', '\\143'],
          ['ÿ', '\\377'],
          [' ', ' '],
          ['z', 'z'],
        ],
      ],
      [
        '&#97;&#x62;&#X63;&#x4E2D;&#20013;&#65535;&#70000;',
        [
          ['a', '&#97;'],
          ['b', '&#x62;'],
          ['c', '&#X63;'],
          ['中', '&#x4E2D;'],
          ['中', '&#20013;'],
          ['\uffff', '&#65535;'],
          ['\ufffd', '&#70000;'],
        ],
      ],
      [
        '0x61 ,0x62 ,0x63 ,0x64',
        [
          ['a', '0x61'],
          ['b', '0x62'],
          ['c', '0x63'],
          ['d', '0x64'],
        ],
      ],
      [
        "'0x61' '0x62' '0x63' '0x64'",
        [
          ['a', '0x61'],
          ['b', '0x62'],
          ['c', '0x63'],
          ['d', '0x64'],
        ],
      ],
    ];
    for (const [text, spans] of cases) expect(spansOf(text, numbersView(text)), text).toEqual(spans);
  });

  it('decimal bytes with or without spaces around the commas, and as Go prints them; a number above 255 is no character', () => {
    expect(numbersView('97 , 98 , 99 , 100 , 101 , 102 , 103 , 104')?.text).toBe('abcdefgh');
    expect(numbersView('97,98,99,100,101,102,103,300')?.text).toBe('abcdefg\ufffd');
    expect(spansOf('[97 98 99 100 101 102 103 104]', numbersView('[97 98 99 100 101 102 103 104]'))?.at(-1)).toEqual(['h', '104']);
  });

  it('fewer than four escapes, a single number, od -c columns inside a line or without their spacing, or no numbers: no view', () => {
    for (const text of [
      '\\x61 \\u0061 \\141 &#97; 0x61',
      '\\x61\\x62\\x63',
      'log 0000000   a   b   c   d',
      '0000000 a b c d',
      'plain',
      '97, 98, 99, 100, 101, 102, 103',
    ]) {
      expect(numbersView(text), text).toBeUndefined();
    }
  });

  it('od -c: printable characters, escapes and octal codes, over lines, each standing where its field is; padding is no byte', () => {
    const text = '0000000   a   b  \\0  \\a  \\b  \\f  \\n  \\r  \\t  \\v 001 177\n0000012   c   d    \t\r\n0000016';
    expect(spansOf(text, numbersView(text))).toEqual([
      ['a', '   a'],
      ['b', '   b'],
      ['\0', '  \\0'],
      ['\x07', '  \\a'],
      ['\b', '  \\b'],
      ['\f', '  \\f'],
      ['\n', '  \\n'],
      ['\r', '  \\r'],
      ['\t', '  \\t'],
      ['\v', '  \\v'],
      ['\x01', ' 001'],
      ['\x7f', ' 177'],
      ['c', '   c'],
      ['d', '   d'],
      ...[...'0000016'].map((c): [string, string] => [c, c]),
    ]);
    expect(numbersView('0000000   a   b   c   d')?.text).toBe('abcd');
  });

  it('ANSI colours inside the escapes are taken out, each character still standing where its escape is', () => {
    const text = '\x1b[1m\\x61\\x62\x1b[0m\\x63\\x64!';
    expect(spansOf(text, numbersView(text))).toEqual([
      ['a', '\\x61'],
      ['b', '\\x62'],
      ['c', '\\x63'],
      ['d', '\\x64'],
      ['!', '!'],
    ]);
  });
});

describe('dump lines read by their bytes and by their column (src/harness/redactor.ts bytesView, tailsView)', () => {
  it("xxd -e: each word's bytes read backwards, each standing for its whole group and its bytes in the column", () => {
    const text = '00000000: 64636261 68676665  abcdefgh';
    const view = spansOf(text, bytesView(text, true))!;
    expect(view.map(([c]) => c).join('')).toBe('6162636465666768');
    expect(view[0]).toEqual(['6', '64636261 68676665  abcd']);
    expect(view[15]).toEqual(['8', '68676665  abcdefgh']);
    const bare = '00000000: 64636261 68676665';
    expect(spansOf(bare, bytesView(bare, true))!.map(([, s]) => s)).toEqual([...Array(8).fill('64636261'), ...Array(8).fill('68676665')]);
    const short = '00000000: 64636261 68676665  wxy';
    expect(spansOf(short, bytesView(short, true))![15]).toEqual(['8', '68676665  wxy']);
  });

  it('xxd -e: a group of an odd number of digits is no word, read digit by digit', () => {
    expect(bytesView('00000000: 61626 6364', true)?.text).toBe('616266463');
  });

  it('a dump line without its column: each hex digit stands where it is', () => {
    const text = '00000000: 6162 6364';
    expect(spansOf(text, bytesView(text))).toEqual([...'61626364'].map((c) => [c, c]));
  });

  it('the column of a dump line, between bars, between > and <, or with a bar at its end only, each character from the groups to itself', () => {
    const bars = '00000000  61 62 63 64  |abcd|\n00000004  65 66        |ef|';
    expect(spansOf(bars, tailsView(bars))).toEqual([
      ['a', '  61 62 63 64  |a'],
      ['b', '  61 62 63 64  |ab'],
      ['c', '  61 62 63 64  |abc'],
      ['d', '  61 62 63 64  |abcd'],
      ['e', '  65 66        |e'],
      ['f', '  65 66        |ef'],
    ]);
    const angles = '00000000: 6162 6364  >abcd<\nz';
    expect(spansOf(angles, tailsView(angles))?.[0]).toEqual(['a', ' 6162 6364  >a']);
    const endBar = '00000000: 6162 6364  abcd|\nz';
    expect(spansOf(endBar, tailsView(endBar))?.slice(0, 2)).toEqual([
      ['a', ' 6162 6364  a'],
      ['b', ' 6162 6364  ab'],
    ]);
  });

  it('a line of words: its last word, each character standing where it is', () => {
    const text = 'one ab\ntwo "cd",\n';
    expect(spansOf(text, tailsView(text))).toEqual([...'abcd'].map((c) => [c, c]));
  });

  it('a dump line of 400 characters is read by its column, one of 401 by its last word', () => {
    const dumped = ' 00000000: 7470 6174  t at';
    expect(tailsView(`${'x'.repeat(400 - dumped.length)}${dumped}\nz`)?.text).toBe('t atz');
    expect(tailsView(`${'x'.repeat(401 - dumped.length)}${dumped}\nz`)?.text).toBe('atz');
  });
});

describe("each writer's lines read apart (src/harness/redactor.ts tailsView byPrefix)", () => {
  it("one writer's lines stamped with other dates and times, across a year, with or without a Z or a fraction, are that writer's", () => {
    const text = [
      '2029-12-31T23:59:59.950Z [w1] ab',
      '23:59:59.950 [w2] AB',
      '2030-01-01 00:00:00,125 [w1] cd',
      '00:00:00 [w2] CD',
      '2030-01-01T00:00:01Z [w1] ef',
      '00:00:01.125 [w2] EF',
    ].join('\n');
    expect(tailsView(text, true)?.text).toBe('abcdef\nABCDEF');
  });

  it('a line stamped with a time only is not a line without a prefix', () => {
    expect(tailsView('10:00:00.1 partone\nlone\n', true)?.text).toBe('partone\nlone');
  });

  it('lines of one writer, or of a writer whose lines end in no word, have no view by writer', () => {
    expect(tailsView('[w1] ab\n[w1] cd\n', true)).toBeUndefined();
    expect(tailsView('[w1] abcd\n[w2] "\n', true)).toBeUndefined();
  });

  it("two writers' hexdump -C dumps interleaved: each writer's column read whole, the offsets left out", () => {
    const text = ['[cafe] 00000000  61 62  |ab|', '[beef] 00000000  41 42  |AB|', '[cafe] 00000002  63 64  |cd|', '[beef] 00000002  43 44  |CD|'].join('\n');
    expect(tailsView(text, true)?.text).toBe('abcd\nABCD');
  });
});

describe('two secrets in one view (src/harness/redactor.ts redact)', () => {
  it('two secrets dumped back to back leave no piece of either, the text after kept', () => {
    const r = new Redactor();
    const a = 'eyJhbGciOiJSUzI1NiJ9.at-7f3a9c';
    const p = r.register('access-token', a)!;
    r.register('api-token', TOKEN);
    expect(r.redact(`${xxd(Buffer.from(a + TOKEN))}\nend`)).toBe(`00000000: ${p}\nend`);
  });

  it('two secrets cut across lines, the second right after the first, each keep their own placeholder', () => {
    const r = new Redactor();
    const a = 'eyJhbGciOiJSUzI1NiJ9.at-7f3a9c';
    const p = r.register('access-token', a)!;
    const q = r.register('api-token', TOKEN)!;
    expect(r.redact(`x ${a.slice(0, 10)}\n${a.slice(10)}${TOKEN.slice(0, 10)}\n${TOKEN.slice(10)} y`)).toBe(`x ${p}${q} y`);
  });
});
