/**
 * The client fault matrix of one profile: the fixture client without a fault, and its conforming
 * `--host-routed` variant, pass every client rule of the profile; with each fault, exactly that
 * fault's rule fails (a warning for a SHOULD), every other rule still passes (or is skipped, where
 * the fault table says why), and report.html shows the requests that judged it. The runs are independent (each its own servers and folders),
 * so they run concurrently: most of their time is spent waiting for the fixture's processes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getRule } from '../../src/rules/catalog.js';
import { CLIENT_FAULTS } from '../../suites/client/client-faults.js';
import { FIXTURE, notPassed, runClientInProcess } from './helpers.js';

export function clientFaultMatrix(profile: 'personal-token' | 'partner-key'): void {
  describe.concurrent(`tack client ${profile}: the fixture client and each of its faults`, () => {
    it('without a fault, every client rule of the profile passes (exit 0)', async () => {
      const run = await runClientInProcess(profile, [process.execPath, FIXTURE]);
      expect(notPassed(run)).toEqual([]);
      expect(run.exit).toBe(0);
    });

    // A conforming client whose renewals after its first 401 go to the Host-routed listener by name, its address read from
    // the tenant's account page between the 401 and the renewal: that page was once taken for the retry (a false red).
    it('--host-routed: renewing at the hosts by name, every client rule of the profile passes (exit 0)', async () => {
      const run = await runClientInProcess(profile, [process.execPath, FIXTURE, '--host-routed']);
      expect(notPassed(run)).toEqual([]);
      expect(run.exit).toBe(0);
    });

    for (const { fault, rule, unexercised, warns } of CLIENT_FAULTS.filter((f) => f.profiles.includes(profile))) {
      it(`--fault=${fault} breaks ${rule} and nothing else`, async () => {
        const run = await runClientInProcess(profile, [process.execPath, FIXTURE, `--fault=${fault}`]);
        const should = getRule(rule)?.level === 'SHOULD';
        const skipped = (unexercised ?? []).filter((u) => u.profile === profile).flatMap((u) => u.rules.map((r) => `${r}: skipped`));
        const warned = (warns ?? []).filter((u) => u.profile === profile).flatMap((u) => u.rules.map((r) => `${r}: warning`));
        const expected = [`${rule}: ${should ? 'warning' : 'failed'}`, ...skipped, ...warned].sort();
        expect(
          notPassed(run)
            .map((line) => line.split(':').slice(0, 2).join(':'))
            .sort(),
        ).toEqual(expected);
        expect(run.exit).toBe(should ? 0 : 1);
        // The report shows, for the failed rule, the requests its failed checks were judged on.
        const failed = run.rules.get(rule)!.checks.filter((c) => !c.ok);
        const html = readFileSync(join(run.runDir, 'report.html'), 'utf8');
        const article = html.slice(html.indexOf(`id="rule-${rule}"`));
        for (const seq of failed.flatMap((c) => c.exchanges)) expect(article).toContain(`id="exchange-${seq}"`);
      });
    }
  });
}
