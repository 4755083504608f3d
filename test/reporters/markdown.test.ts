/** summary.md rendered from one fixed results document (test/reporters/fixture.ts). */
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/reporters/markdown.js';
import { DOC } from './fixture.js';

describe('summary.md', () => {
  const md = renderMarkdown(DOC);

  it('has the verdict, a table by area and one line per rule that does not hold', () => {
    expect(md).toContain('## tack: FAILED');
    expect(md).toContain('| area | failed | warning | error | passed | skipped |');
    expect(md).toMatch(/\| Partner key[^|]*\| 1 \| 1 \| 0 \| 1 \| 0 \|/);
    expect(md).toMatch(/\| \*\*total\*\* \| \*\*1\*\* \| \*\*1\*\* \| \*\*1\*\* \| \*\*1\*\* \| \*\*1\*\* \|/);
    const lines = md.split('\n').filter((l) => l.startsWith('- ') && !l.startsWith('- **'));
    // What was not checked, grouped by why.
    expect(md).toContain('### Not checked\n\n- **1** — needs a personal API token');
    expect(lines.map((l) => /`([A-Z-]+)`/.exec(l)?.[1])).toEqual(['PARTNER-SECRET-EXACT', 'PARTNER-TIMEZONE', 'SIGNIN-EXCHANGE']);
    expect(md).toContain('replay: `tack run --seed 42 --path 3:1 --only PARTNER-SECRET-EXACT`');
  });

  it('keeps each line one table-safe line and is short', () => {
    expect(md).not.toContain('<script>');
    expect(md).toContain('\\| pipes');
    expect(md.length).toBeLessThan(4000);
  });
});
