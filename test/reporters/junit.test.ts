/**
 * junit.xml rendered from one fixed results document (test/reporters/fixture.ts).
 */
import { describe, expect, it } from 'vitest';
import { renderJunit } from '../../src/reporters/junit.js';
import { DOC } from './fixture.js';
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
