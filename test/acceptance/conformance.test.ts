/**
 * The reference server passes every rule, the token page's included (in Chromium), and every rule
 * of the catalog has a fault that makes it fail (a check that cannot fail is a defect). Without
 * Chromium the token page's rules are skipped, saying why, and only they. The full run drives
 * Debian's `chromium` where it is installed, the browser a user's run finds by default.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FAULTS } from '../../src/reference/faults.js';
import { getRule, SERVER_RULES } from '../../src/rules/catalog.js';
import { exitCodeOf } from '../../src/runner/exit-policy.js';
import { findBrowser } from '../../src/harness/browser/executable.js';
import type { RunResult } from '../../src/runner/index.js';
import { targetFor } from '../helpers/modes.js';
import { DEBIAN_CHROMIUM } from '../helpers/test-browser.js';
import { browserLimitMs } from '../helpers/browser-time.js';
import { checkedRules, planFor, runAgainstReference } from '../helpers/reference-run.js';

const hasChromium = findBrowser(process.env['TACK_BROWSER']).found;

describe('conformance run against the reference server', () => {
  it(
    'passes every rule and exits 0; tack doctor foresaw exactly the rules it checks',
    async () => {
      // In `chromium` itself, the browser users get by default (the other runs drive the headless shell: test/helpers/test-browser.ts).
      const { server, env } = await targetFor('hook', [], {}, existsSync(DEBIAN_CHROMIUM) ? { TACK_BROWSER: DEBIAN_CHROMIUM } : {});
      let result: RunResult;
      try {
        const plan = await planFor(env);
        result = await runAgainstReference({ env, runs: 8 });
        const foresight = checkedRules(plan, result);
        expect(foresight.foreseen).toEqual(foresight.checked);
      } finally {
        await server.close();
      }
      const noBrowser = (r: { id: string; status: string; reason: string }) =>
        !hasChromium && getRule(r.id)?.area === 'token-page' && r.status === 'skipped' && r.reason.includes('needs a browser');
      const notPassed = result.rules.filter((r) => r.status !== 'passed' && !noBrowser(r)).map((r) => `${r.id}: ${r.status}: ${r.reason}`);
      expect(notPassed).toEqual([]);
      expect(exitCodeOf(result.rules, { strict: true, requireAll: false })).toBe(0);
      // Every token the hook and the page generated is revoked when the run ends.
      expect(result.tokens?.generated).toBeGreaterThan(0);
      expect(result.tokens).toMatchObject({ revoked: result.tokens?.generated, leftAlive: 0, alive: [] });
    },
    browserLimitMs(),
  );

  it('has a fault for every server rule of the catalog', () => {
    const broken = new Set<string>(FAULTS.flatMap((f) => f.rules));
    expect(SERVER_RULES.map((r) => r.id).filter((id) => !broken.has(id))).toEqual([]);
  });
});
