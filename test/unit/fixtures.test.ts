/**
 * The contract every generator in fixtures/ keeps (fast-check's own habit): the same seed gives the
 * same values; every value is valid for what it claims to be; failures shrink to a smaller value
 * that is still valid.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { business } from '../../fixtures/businesses.js';
import { headerNameCase, headerTampering, misnamedHeaders } from '../../fixtures/headers.js';
import {
  isWellFormed,
  malformedBody,
  MINT_BODY,
  REFRESH_BODY,
  USER_BODY,
  essentialMalformations,
  type BodyShape,
  type Malformation,
} from '../../fixtures/malformed.js';
import {
  displayName,
  emailTag,
  firstName,
  invalidTimeZone,
  lastName,
  phoneNumber,
  plusAddressedEmail,
  timeZone,
  TIME_ZONES,
  userDraft,
  withEmail,
  type UserDraft,
} from '../../fixtures/users.js';

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const SECRET = 'nGuBHBZ0dg0On5LjriSecretForTests';
const VALID_USER = { email: 'tack+unit@example.com', firstName: 'Ann', lastName: 'Lee', timeZone: 'Europe/Berlin' };

const isName = (s: unknown) => typeof s === 'string' && s === s.trim() && s.length > 0 && [...s].length <= 40 && !CONTROL.test(s);
const isZone = (z: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: z });
    return true;
  } catch {
    return false;
  }
};

function draftValid(d: UserDraft, mode: 'none' | 'some' | 'at-least-one'): boolean {
  const optional = [d.displayName, d.phoneNumber, d.timeZone].filter((v) => v !== undefined).length;
  if (mode === 'none' && optional > 0) return false;
  if (mode === 'at-least-one' && optional === 0) return false;
  const user = withEmail(d, `tack+${d.emailTag}@example.com`);
  return (
    isName(d.firstName) &&
    isName(d.lastName) &&
    (d.displayName === undefined || isName(d.displayName)) &&
    (d.phoneNumber === undefined || /^\+\d{7,15}$/.test(d.phoneNumber)) &&
    (d.timeZone === undefined || isZone(d.timeZone)) &&
    !('emailTag' in user) &&
    isWellFormed(JSON.stringify(user), USER_BODY)
  );
}

const malformedValid = (shape: BodyShape) => (m: Malformation) =>
  typeof m.kind === 'string' &&
  m.kind !== '' &&
  !isWellFormed(m.render(VALID_USER), shape) &&
  !isWellFormed(m.render({ username: 'a', refreshToken: 'r' }), shape);

interface Generator {
  readonly name: string;
  readonly arbitrary: fc.Arbitrary<unknown>;
  readonly valid: (value: never) => boolean;
  /** A comparable form of a value (malformations are recipes: compare what they render). */
  readonly view?: (value: never) => unknown;
}

const viewMalformation = (m: Malformation) => [m.kind, m.render(VALID_USER)];

const GENERATORS: readonly Generator[] = [
  { name: 'firstName', arbitrary: firstName(), valid: isName },
  { name: 'lastName', arbitrary: lastName(), valid: isName },
  { name: 'displayName', arbitrary: displayName(), valid: isName },
  { name: 'phoneNumber', arbitrary: phoneNumber(), valid: (s: string) => /^\+\d{7,15}$/.test(s) },
  { name: 'timeZone', arbitrary: timeZone(), valid: (z: string) => TIME_ZONES.includes(z) && Intl.supportedValuesOf('timeZone').includes(z) && isZone(z) },
  { name: 'invalidTimeZone', arbitrary: invalidTimeZone(), valid: (z: string) => !isZone(z) && !Intl.supportedValuesOf('timeZone').includes(z) },
  { name: 'emailTag', arbitrary: emailTag(), valid: (s: string) => /^[a-z0-9]+([.-][a-z0-9]+)?$/.test(s) },
  { name: 'plusAddressedEmail', arbitrary: plusAddressedEmail(), valid: (s: string) => /^[a-z.]+\+[a-z0-9]+([.-][a-z0-9]+)?@example\.(com|org|net)$/.test(s) },
  { name: 'userDraft (required only)', arbitrary: userDraft({ optional: 'none' }), valid: (d: UserDraft) => draftValid(d, 'none') },
  { name: 'userDraft (optional fields maybe)', arbitrary: userDraft({ optional: 'some' }), valid: (d: UserDraft) => draftValid(d, 'some') },
  {
    name: 'userDraft (at least one optional field)',
    arbitrary: userDraft({ optional: 'at-least-one' }),
    valid: (d: UserDraft) => draftValid(d, 'at-least-one'),
  },
  { name: 'malformedBody (user)', arbitrary: malformedBody(USER_BODY), valid: malformedValid(USER_BODY), view: viewMalformation },
  { name: 'malformedBody (mint)', arbitrary: malformedBody(MINT_BODY), valid: malformedValid(MINT_BODY), view: viewMalformation },
  { name: 'malformedBody (refresh)', arbitrary: malformedBody(REFRESH_BODY), valid: malformedValid(REFRESH_BODY), view: viewMalformation },
  {
    name: 'business',
    arbitrary: business('r20260101'),
    valid: (b: { name: string; registrationNumber: string }) => b.name.endsWith('(tack r20260101)') && /^[A-Z]*\d{6,10}$/.test(b.registrationNumber),
  },
  { name: 'headerTampering', arbitrary: headerTampering(SECRET), valid: (t: { value: string }) => t.value !== SECRET && t.value !== '' },
  { name: 'headerNameCase', arbitrary: headerNameCase('Tenant-Key-1'), valid: (h: { name: string }) => h.name.toLowerCase() === 'tenant-key-1' },
];

describe('fixtures: generator contract', () => {
  describe.each(GENERATORS.map((g) => [g.name, g] as const))('%s', (_name, g) => {
    const view = (v: unknown) => (g.view ? (g.view as (x: unknown) => unknown)(v) : v);
    const valid = g.valid as (v: unknown) => boolean;

    it('gives the same values for the same seed', () => {
      for (const seed of [1, 42, 20260101]) {
        const a = fc.sample(g.arbitrary, { seed, numRuns: 25 }).map(view);
        const b = fc.sample(g.arbitrary, { seed, numRuns: 25 }).map(view);
        expect(b).toEqual(a);
      }
    });

    it('gives valid values', () => {
      fc.assert(
        fc.property(g.arbitrary, (v) => valid(v)),
        { seed: 7, numRuns: 300 },
      );
    });

    it('shrinks a failure to a valid, smaller value', () => {
      let shrunk = 0;
      for (let seed = 1; seed <= 20; seed++) {
        const details = fc.check(
          fc.property(g.arbitrary, () => false),
          { seed, numRuns: 1 },
        );
        expect(details.failed).toBe(true);
        expect(valid(details.counterexample![0])).toBe(true);
        if (details.numShrinks > 0) shrunk++;
      }
      // Some generators start many seeds at their smallest value already; at least one must move.
      expect(shrunk).toBeGreaterThan(0);
    });
  });
});

describe('fixtures: specific promises', () => {
  it('user drafts use many scripts, not only ASCII', () => {
    const names = fc.sample(firstName(), { seed: 3, numRuns: 200 });
    expect(names.some((n) => /[^\x00-\x7f]/.test(n))).toBe(true);
    expect(names.some((n) => /^[\x00-\x7f]+$/.test(n))).toBe(true);
  });

  it('time zones put well-known zones first, where shrinking ends', () => {
    expect(TIME_ZONES[0]).toBe('Europe/London');
    expect(
      fc.check(
        fc.property(timeZone(), () => false),
        { seed: 5 },
      ).counterexample![0],
    ).toBe('Europe/London');
  });

  it('the essential malformations break every body shape', () => {
    for (const shape of [USER_BODY, MINT_BODY, REFRESH_BODY]) {
      for (const m of essentialMalformations(shape))
        expect(isWellFormed(m.render({ ...VALID_USER, username: 'a', refreshToken: 'r' }), shape), m.kind).toBe(false);
      const missing = essentialMalformations(shape)
        .filter((m) => m.kind.endsWith('missing'))
        .map((m) => m.kind);
      expect(missing).toEqual(shape.required.map((f) => `${f} missing`));
    }
  });

  it('a truncated body is never valid JSON', () => {
    const truncations = fc.sample(malformedBody(USER_BODY), { seed: 11, numRuns: 500 }).filter((m) => m.kind.startsWith('JSON truncated'));
    expect(truncations.length).toBeGreaterThan(10);
    for (const m of truncations) expect(() => JSON.parse(m.render(VALID_USER))).toThrow();
  });

  it('misnamed headers never equal the configured pair, in any case', () => {
    for (const names of [
      ['Tenant-Key-1', 'Tenant-Key-2'],
      ['x-partner-id', 'x-partner-secret'],
      ['ClientId', 'Secret'],
    ] as const) {
      const variants = misnamedHeaders(names);
      expect(variants.length).toBeGreaterThan(2);
      for (const v of variants) {
        expect(v.names[0].toLowerCase() === names[0].toLowerCase() && v.names[1].toLowerCase() === names[1].toLowerCase()).toBe(false);
        for (const n of v.names) expect(n).toMatch(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/);
      }
    }
  });
});
