/**
 * The redactor's behaviour the reports rely on: redacting twice changes nothing, a short tampered
 * secret is replaced where it stands as a value but never inside ordinary words or placeholders,
 * and an edit of a secret is described without revealing it.
 */
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/harness/redactor.js';

const SECRET = 'o0wlQz8-partner-secret-value-0123456789abcd';

describe('Redactor edges', () => {
  it('keeps placeholders as they are when text is redacted again', () => {
    const r = new Redactor();
    r.register('partner-secret', SECRET);
    r.register('partner-secret-variant', '1');
    const once = r.redact(`a ${SECRET} b`);
    expect(once).toBe('a <partner-secret#1> b');
    expect(r.redact(once)).toBe(once);
  });

  it('replaces a short value as a whole value or quoted, never inside words', () => {
    const r = new Redactor();
    r.register('partner-secret-variant', 'o0w');
    expect(r.redact('o0w')).toBe('<partner-secret-variant#1>');
    expect(r.redact('[{"kind":"cut","value":"o0w"}]')).toBe('[{"kind":"cut","value":"<partner-secret-variant#1>"}]');
    expect(r.redact('foo0wbar o0w-x')).toBe('foo0wbar o0w-x');
    expect(r.redactHeaders({ 'x-secret': 'o0w' })).toEqual({ 'x-secret': '<partner-secret-variant#1>' });
  });

  it('describes a tampered secret as an edit of the real one, revealing nothing of it', () => {
    const r = new Redactor();
    const cut = r.register('partner-secret-variant', SECRET.slice(0, 5))!;
    const longer = r.register('partner-secret-variant', `${SECRET}xy`)!;
    const changed = r.register('partner-secret-variant', `${SECRET.slice(0, 3)}Q${SECRET.slice(4)}`)!;
    const flipped = r.register(
      'partner-secret-variant',
      SECRET.toUpperCase() === SECRET ? SECRET.toLowerCase() : [...SECRET].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join(''),
    )!;
    const unrelated = r.register('partner-secret-variant', 'zzzzzzzzzzzzzzzzzzzzzzzz')!;
    expect(r.editOf(cut, SECRET)).toEqual({ kind: 'edited', keep: 5, insert: '', resume: SECRET.length });
    expect(r.editOf(longer, SECRET)).toEqual({ kind: 'edited', keep: SECRET.length, insert: 'xy', resume: SECRET.length });
    expect(r.editOf(changed, SECRET)).toEqual({ kind: 'edited', keep: 3, insert: 'Q', resume: 4 });
    expect(r.editOf(flipped, SECRET)).toEqual({ kind: 'case-flipped' });
    expect(r.editOf(unrelated, SECRET)).toBeUndefined();
    expect(r.editOf('<api-token#9>', SECRET)).toBeUndefined();
  });
});
