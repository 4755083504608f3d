/**
 * JUnit, Markdown and HTML rendered from one fixed results document (test/reporters/fixture.ts).
 */
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/reporters/report-html.js';
import { renderJunit } from '../../src/reporters/junit.js';
import { renderMarkdown } from '../../src/reporters/markdown.js';
import { DOC, EXCHANGES } from './fixture.js';
import type { ResultsDocument } from '../../src/reporters/results-schema.js';

/** The attributes and content of the testcase element of one rule. */
function testcase(xml: string, rule: string): string {
  const start = xml.indexOf(`name="${rule}:`);
  expect(start, `testcase of ${rule}`).toBeGreaterThan(0);
  return xml.slice(start, xml.indexOf('</testcase>', start));
}

describe('junit.xml', () => {
  const xml = renderJunit(DOC);

  it('has one testsuite per area and one testcase per rule', () => {
    expect(xml.match(/<testsuite /g)).toHaveLength(3);
    expect(xml.match(/<testcase /g)).toHaveLength(DOC.rules.length);
    expect(xml).toMatch(/<testsuite name="Partner key[^"]*" timestamp="[^"]+" tests="3" failures="1" errors="0" skipped="0"/);
  });

  it('fails a MUST, errors an error, skips with the reason', () => {
    expect(testcase(xml, 'PARTNER-SECRET-EXACT')).toMatch(/<failure message="a tampered secret is refused[^"]*" type="MUST">/);
    expect(testcase(xml, 'PARTNER-SECRET-EXACT')).toContain('tack run --seed 42 --path 3:1 --only PARTNER-SECRET-EXACT');
    expect(testcase(xml, 'SIGNIN-EXCHANGE')).toMatch(/<error message="sign-in\/exchange: TACK_ERR_TIMEOUT[^"]*" type="error">/);
    expect(testcase(xml, 'SEARCH-SHAPE')).toMatch(/<skipped message="needs a personal API token[^"]*"\/>/);
  });

  it('shows a SHOULD failure without failing, unless --strict', () => {
    const warning = testcase(xml, 'PARTNER-TIMEZONE');
    expect(warning).not.toContain('<failure');
    expect(warning).toContain('WARNING: SHOULD not met');
    expect(warning).toContain('<property name="tack.status" value="warning"/>');
    const strict = renderJunit({ ...DOC, run: { ...DOC.run, strict: true } });
    expect(testcase(strict, 'PARTNER-TIMEZONE')).toMatch(/<failure message="timeZone [^"]*" type="SHOULD">/);
  });

  it('turns an expected failure of the baseline into a skip that says so', () => {
    const doc: ResultsDocument = { ...DOC, rules: DOC.rules.map((r) => (r.id === 'PARTNER-SECRET-EXACT' ? { ...r, baseline: 'expected' } : r)) };
    const tc = testcase(renderJunit(doc), 'PARTNER-SECRET-EXACT');
    expect(tc).not.toContain('<failure');
    expect(tc).toMatch(/<skipped message="expected failure \(baseline\): failed: /);
  });

  it('escapes text: markup only inside CDATA, no character XML cannot carry', () => {
    const strict = renderJunit({ ...DOC, run: { ...DOC.run, strict: true } });
    const outsideCdata = strict.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '');
    expect(outsideCdata).not.toContain('<script>');
    expect(outsideCdata).toContain('&lt;script>alert(&quot;x&quot;)');
    const nasty = 'bad \u0001 byte ]]> twice ]]> end';
    const doc: ResultsDocument = { ...DOC, rules: DOC.rules.map((r) => ({ ...r, reason: nasty })) };
    const out = renderJunit(doc);
    expect(out).not.toContain('\u0001');
    expect(out.match(/<!\[CDATA\[/g)?.length).toBe(out.match(/\]\]>/g)?.length);
  });
});

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

describe('report.html', () => {
  const html = renderHtml(DOC, EXCHANGES);

  it('is one self-contained file: no external script, style, font or image', () => {
    expect(html).not.toMatch(/<(script|link|img|iframe)[^>]+(src|href)=/i);
    expect(html).not.toMatch(/@import|url\(/i);
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;sha256-/);
  });

  it('escapes every piece of report text', () => {
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;');
    expect(html).toContain('&lt;partner-secret-variant#1&gt;');
  });

  it('shows the verdict, every rule with its filter attributes, and the evidence of each failed rule', () => {
    expect(html).toContain('<header class="verdict verdict-failed" id="verdict">');
    for (const r of DOC.rules) expect(html).toContain(`<tr data-rule="${r.id}" data-status="${r.status}" data-area="${r.area}">`);
    expect(html).toContain('<article class="rule-detail detail-failed" id="rule-PARTNER-SECRET-EXACT"');
    expect(html).toContain('<pre class="replay"><code>tack run --seed 42 --path 3:1 --only PARTNER-SECRET-EXACT</code></pre>');
    expect(html).toContain(`&quot;$${'{'}TACK_PARTNER_SECRET:0:5}&quot;`);
    expect(html).toMatch(/<details class="exchange judged" open id="exchange-3">/);
    expect(html).toContain('id="exchange-2"');
    expect(html).not.toContain('id="rule-PARTNER-HEADERS-REQUIRED"');
    expect(html).toContain('data-filter-status="failed"');
  });
});

describe('the console replay line', () => {
  it('carries the env file and the faults, so pasting it reaches the same target', async () => {
    const { ruleLine } = await import('../../src/reporters/console.js');
    const { replayArgs } = await import('../../src/reporters/judged-exchanges.js');
    const rule = { ...DOC.rules[0]!, status: 'failed' as const };
    const line = ruleLine(rule, replayArgs({ envFile: 'uat env/target.env', faults: ['x'] }, false));
    expect(line).toContain("replay: tack run --seed 42 --path 3:1 --only PARTNER-SECRET-EXACT --env-file 'uat env/target.env'");
    expect(line).not.toContain('--fault');
  });
});
