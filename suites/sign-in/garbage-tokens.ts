/**
 * Tokens the sign-in server never issued: random text (any Unicode), opaque-looking and very long
 * strings, JWT-looking tokens with forged claims, strings full of form-encoding specials, and
 * (when tack owns a real token) near copies of a real one.
 *
 * Every value is at least 16 characters long: the identity client registers every token it sends
 * with the redactor, and a short value ("a") would then be blanked out of all output.
 */
import fc from 'fast-check';

export interface Garbage {
  readonly kind: string;
  readonly value: string;
}

const MIN_GARBAGE_LENGTH = 16;

const BASE64URL = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'];

function base64url(minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...BASE64URL), minLength, maxLength });
}

function b64json(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** header.payload.signature with a plausible refresh-token payload and a random signature. */
function jwtLooking(clientId: string): fc.Arbitrary<string> {
  const header = fc.constantFrom({ alg: 'HS256', typ: 'JWT' }, { alg: 'RS256', typ: 'JWT', kid: 'tack' }, { alg: 'none', typ: 'JWT' });
  const payload = fc.record({
    exp: fc.integer({ min: 2_000_000_000, max: 4_000_000_000 }),
    iat: fc.integer({ min: 1_600_000_000, max: 1_900_000_000 }),
    jti: fc.uuid(),
    sub: fc.uuid(),
    typ: fc.constantFrom('Refresh', 'Offline'),
    azp: fc.constant(clientId),
  });
  return fc.tuple(header, payload, base64url(43, 86)).map(([h, p, sig]) => `${b64json(h)}.${b64json(p)}.${sig}`);
}

/** Never-issued tokens, none empty and none shorter than MIN_GARBAGE_LENGTH. */
export function garbageTokens(clientId: string): fc.Arbitrary<Garbage> {
  return fc
    .oneof(
      fc.string({ unit: 'grapheme', minLength: MIN_GARBAGE_LENGTH, maxLength: 64 }).map((value) => ({ kind: 'random Unicode text', value })),
      base64url(MIN_GARBAGE_LENGTH, 120).map((value) => ({ kind: 'a random opaque token', value })),
      base64url(2_000, 4_000).map((value) => ({ kind: `a very long opaque token`, value })),
      jwtLooking(clientId).map((value) => ({ kind: 'a JWT-looking token with forged claims', value })),
      fc
        .string({ unit: fc.constantFrom(..."+/=%&;?# \t.~!*'()"), minLength: 4, maxLength: 12 })
        .map((specials) => ({ kind: 'a token full of form-encoding specials', value: `tack-${specials}-garbage-token` })),
    )
    .filter((g) => g.value.trim().length >= MIN_GARBAGE_LENGTH);
}

/**
 * Near copies of a real token: cut short, one character changed, characters appended, letter case
 * flipped. The last character is never changed: in base64 it can carry unused bits, so a changed
 * last character may decode to the same bytes.
 */
export function nearCopies(token: string): Garbage[] {
  const out: Garbage[] = [];
  const cut = Math.max(MIN_GARBAGE_LENGTH, Math.floor(token.length / 2));
  if (cut < token.length) out.push({ kind: 'a real token cut in half', value: token.slice(0, cut) });
  const i = Math.floor((token.length - 1) / 2);
  const c = token[i]!;
  out.push({ kind: 'a real token with one character changed', value: token.slice(0, i) + (c === 'A' ? 'B' : 'A') + token.slice(i + 1) });
  out.push({ kind: 'a real token with characters appended', value: `${token}AAAA` });
  const flipped = [...token].map((ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase())).join('');
  if (flipped !== token) out.push({ kind: 'a real token in the other letter case', value: flipped });
  return out.filter((g) => g.value !== token && g.value.length >= MIN_GARBAGE_LENGTH);
}
