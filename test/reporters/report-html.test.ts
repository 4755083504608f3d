/** report.html rendered from one fixed results document (test/reporters/fixture.ts); the browser test is html-browser.test.ts. */
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/reporters/report-html.js';
import { DOC, EXCHANGES } from './fixture.js';

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
