/**
 * Reading what was seen, without a browser (src/harness/browser/visible-text.ts): where a value is
 * shown and the text of it all. Each case pins down what a weaker reading would get wrong, found by
 * mutation testing (`npm run mutation`).
 */
import { describe, expect, it } from 'vitest';
import { type Seen, seenText, whereShown } from '../../../src/harness/browser/visible-text.js';

const seen: Seen = {
  parts: [
    { where: 'an image', text: 'key tpat_123' },
    { where: 'the text', text: 'Your key: tpat_123' },
    { where: 'the title', text: 'Tokens' },
    { where: 'the text', text: 'again tpat_123' },
  ],
  unreadable: [],
  held: '',
};

describe('reading what was seen (src/harness/browser/visible-text.ts)', () => {
  it('each place that shows the value is named once, in the order of the places', () => {
    expect(whereShown(seen, 'tpat_123')).toEqual(['the text', 'an image']);
    expect(whereShown(seen, 'Tokens')).toEqual(['the title']);
    expect(whereShown(seen, 'absent')).toEqual([]);
  });

  it('an empty value is shown nowhere', () => {
    expect(whereShown(seen, '')).toEqual([]);
  });

  it('the text of it all is each part on its own line', () => {
    expect(seenText(seen)).toBe('key tpat_123\nYour key: tpat_123\nTokens\nagain tpat_123');
  });
});
