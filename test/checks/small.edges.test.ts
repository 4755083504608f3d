/**
 * The small checks at their edges (src/checks/generation.ts, challenge.ts, server-error.ts,
 * token-file.ts): each case pins down what a weaker check would pass, found by mutation testing
 * (`npm run mutation`).
 */
import { describe, expect, it } from 'vitest';
import { bearerChallenge } from '../../src/checks/challenge.js';
import { apiTokenIssued, noApiToken } from '../../src/checks/generation.js';
import { notServerError, noServerErrors } from '../../src/checks/server-error.js';
import { ownerOnly, replacedWhole, stillHoldsToken } from '../../src/checks/token-file.js';
import { answer } from './table.js';

describe('the hook refusing a token at its edges (src/checks/generation.ts)', () => {
  it('a refusal is 400 to 499, with or without a body', () => {
    expect(noApiToken(answer(400)).ok).toBe(true);
    expect(noApiToken(answer(499)).ok).toBe(true);
    expect(noApiToken(answer(399)).ok).toBe(false);
    expect(apiTokenIssued(answer(201)).ok).toBe(false);
  });
});

describe('a challenge at its edges (src/checks/challenge.ts)', () => {
  it('no WWW-Authenticate header is no Bearer challenge', () => {
    expect(bearerChallenge(answer(401)).ok).toBe(false);
  });
});

describe('server errors at their edges (src/checks/server-error.ts)', () => {
  it('500 is a server error, 499 is not', () => {
    expect(notServerError(answer(500)).ok).toBe(false);
    expect(notServerError(answer(499)).ok).toBe(true);
    expect(noServerErrors([{ res: answer(500), what: 'a search' }]).ok).toBe(false);
  });
});

describe('the token file at its edges (src/checks/token-file.ts)', () => {
  it('its mode is shown in octal with four digits, the file type left out', () => {
    expect(ownerOnly(0o100600).actual).toBe('mode 0600');
    expect(ownerOnly(0o100644)).toEqual({ ok: false, expected: expect.any(String), actual: 'mode 0644' });
    expect(ownerOnly(0o100400).ok).toBe(true);
    expect(ownerOnly(0o100044).actual).toBe('mode 0044');
  });

  it('the same inode is a file rewritten in place', () => {
    expect(replacedWhole(7, 7).ok).toBe(false);
    expect(replacedWhole(7, 8).ok).toBe(true);
  });

  it('a file of spaces holds no token; a missing file neither', () => {
    expect(stillHoldsToken(' \n').ok).toBe(false);
    expect(stillHoldsToken(null).ok).toBe(false);
    expect(stillHoldsToken('tpat_x').ok).toBe(true);
  });
});
