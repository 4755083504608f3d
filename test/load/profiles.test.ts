/**
 * Every load profile against the built-in reference server for about a second: it runs, shows
 * progress, writes JSON + HTML, exits 0, with zero errors and zero broken chains, and keeps its
 * request kinds apart (exchange-search: exchanges and searches, each with its own figures).
 * Assertions are on counts and exit codes, never on speed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LOAD_PROFILES } from '../../load-profiles/index.js';
import { load } from './helpers.js';

describe('tack load PROFILE against the built-in reference server', () => {
  it.each(LOAD_PROFILES.map((p) => p.name))('%s: zero errors, zero broken chains, exit 0', async (profile) => {
    const run = await load(profile, { duration: '1s', threshold: ['errors==0'] });
    const { measured, warmup } = run.result;
    expect(run.result.verdict.reasons).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(measured.responses).toBeGreaterThan(0);
    for (const c of [measured, warmup]) {
      expect({ broken: c.broken, lost: c.lost, malformed: c.malformed, non2xx: c.non2xx, errors: c.errors, timeouts: c.timeouts }).toEqual({
        broken: 0,
        lost: 0,
        malformed: 0,
        non2xx: 0,
        errors: 0,
        timeouts: 0,
      });
    }
    expect(run.result.breaks).toEqual([]);
    if (profile !== 'partner-mint') expect(measured.rotations).toBeGreaterThan(0);
    // Progress once a second, a summary, both files.
    expect(run.progress).toMatch(/req\/s .*p99/);
    expect(run.output).toContain('PASSED');
    expect(run.output).toContain(run.jsonFile);
    expect(existsSync(run.htmlFile)).toBe(true);
    expect(readFileSync(run.htmlFile, 'utf8')).toMatch(/<svg[^>]*>.*<\/svg>/s);
    // Each request kind apart, adding up to the whole, in the JSON, the console and the page.
    const kinds = LOAD_PROFILES.find((p) => p.name === profile)!.kinds;
    expect(Object.keys(run.result.endpoints ?? {}).sort()).toEqual([...kinds].sort());
    const byKind = kinds.map((k) => run.result.endpoints![k]!.measured.responses);
    expect(byKind.reduce((a, b) => a + b, 0)).toBe(measured.responses);
    for (const k of kinds) {
      expect(run.output).toMatch(new RegExp(`^${k} +\\d`, 'm'));
      expect(run.output).toMatch(new RegExp(`^${k} statuses \\(measured\\): 200 ×`, 'm'));
      expect(readFileSync(run.htmlFile, 'utf8')).toContain(`<tr><td>${k}</td>`);
    }
    // No token ever reaches output or reports (reference tokens: tpat_, tprt_, at1.).
    for (const text of [run.output, run.progress, run.json]) expect(text).not.toMatch(/tpat_|tprt_|at1\./);
  });
});
