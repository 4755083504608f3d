/** Which tests a selection runs, and how the reasons of unmet needs merge into one (src/runner/selection.ts). */
import { describe, expect, it } from 'vitest';
import { mergeReasons, selectTests } from '../../src/runner/selection.js';
import { fake, pass } from './fake-tests.js';

describe('selectTests', () => {
  it('runs exactly the tests that declare a selected rule', () => {
    const a = fake('a', ['SIGNIN-EXCHANGE'], pass('SIGNIN-EXCHANGE'));
    const b = fake('b', ['SIGNIN-ROTATION', 'SIGNIN-EXCHANGE'], pass('SIGNIN-ROTATION'));
    const c = fake('c', ['SIGNIN-REVOKE'], pass('SIGNIN-REVOKE'));
    const s = selectTests([a, b, c], ['SIGNIN-EXCHANGE']);
    expect(s.tests.map((t) => t.id)).toEqual(['a', 'b']);
    expect(s.lastTestOf.get('SIGNIN-EXCHANGE')).toBe(1);
  });
});

describe('mergeReasons', () => {
  it('merges the missing capabilities from the needs as data, not by parsing the reason words (needs.ts may reword them)', () => {
    const lacking = {
      need: 'hook:clock' as const,
      reason: 'reworded: the hook lacks clock',
      hook: { capability: 'clock' as const, missing: 'not-offered' as const },
    };
    expect(mergeReasons([lacking, 'no test in this version of tack covers it'])).toEqual([
      'no test in this version of tack covers it',
      "the target's test hook does not offer the clock capability",
    ]);
  });
});
