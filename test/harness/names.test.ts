/** Names: every e-mail carries the run id and a counter (unique, findable), and a seed makes people and businesses repeatable. */
import { describe, expect, it } from 'vitest';
import { Names } from '../../src/harness/names.js';

describe('Names', () => {
  it('gives plus-addressed, lower-case, numbered e-mails that carry the run id', () => {
    const names = new Names('20261121T0513-AB12', 1);
    expect([names.email(), names.email('token')]).toEqual(['tack+r20261121t0513-ab12.user.1@example.com', 'tack+r20261121t0513-ab12.token.2@example.com']);
  });

  it('names each business with the run id and a number of its own', () => {
    const names = new Names('r1', 1);
    const a = names.business();
    const b = names.business();
    expect(a.name).toMatch(/\(tack r1 #1\)$/);
    expect(b.name).toMatch(/\(tack r1 #2\)$/);
    expect(a.registrationNumber).toMatch(/^TACK1\d{6}$/);
  });

  it('repeats the same people for the same seed', () => {
    const first = new Names('r', 7).person();
    const again = new Names('r', 7).person();
    expect(again).toEqual(first);
    expect(first.firstName).not.toBe('');
  });
});
