/**
 * SIGNIN-ROTATION-ATOMIC against the reference's race faults and variants, over that rule alone, in
 * the modes where tack owns tokens with the hook (whole and reduced), and a strict server (Keycloak's
 * Max Reuse 0) that forks under overlap (CVE-2026-1035); where tack owns none, skipped, saying why.
 * The fault matrices run each fault and variant over every rule (fault-matrix.ts).
 *
 * On tokens tack generates through the token page, in Chromium, the rule is judged by the hookless
 * matrix of fault-matrix-token-page.ts: its clean run passes it, and each race fault fails it, over
 * that rule alone. The tokens a run owns come from the page there as in password-only mode (the token
 * file's token is never raced), so a password-only run here would prove the same thing again.
 */
import { describe, expect, it } from 'vitest';
import { FAULTS } from '../../src/reference/faults.js';
import type { ReferenceOptions } from '../../src/reference/index.js';
import type { RunResult } from '../../src/runner/index.js';
import { NO_BROWSER, targetFor, type Mode } from '../helpers/modes.js';
import { runAgainstReference } from '../helpers/reference-run.js';

const RULE = 'SIGNIN-ROTATION-ATOMIC';
const RACE_FAULTS = FAULTS.filter((f) => f.storeDelayMs !== undefined);

async function ruleIn(mode: Mode, faults: readonly string[], options: ReferenceOptions = {}): Promise<RunResult['rules'][number]> {
  const { server, env } = await targetFor(mode, faults, options);
  try {
    const result = await runAgainstReference({ env: { ...env, TACK_BROWSER: NO_BROWSER }, only: [RULE] });
    return result.rules.find((r) => r.id === RULE)!;
  } finally {
    await server.close();
  }
}

describe('SIGNIN-ROTATION-ATOMIC', () => {
  it.for(['hook', 'reduced-hook'] as const)('%s mode: passes on the reference, observing its policy', async (mode) => {
    const rule = await ruleIn(mode, []);
    expect([rule.status, rule.reason]).toEqual(['passed', expect.any(String)]);
    expect(rule.observations.join('\n')).toMatch(/each reuse ends the token it replaced/);
  });

  it.for(RACE_FAULTS.flatMap((f) => (['hook', 'reduced-hook'] as const).map((mode) => [mode, f.name, f.conformant === true] as const)))(
    '%s mode, %s',
    async ([mode, fault, conformant]) => {
      const rule = await ruleIn(mode, [fault]);
      expect([rule.status, rule.reason]).toEqual([conformant ? 'passed' : 'failed', expect.any(String)]);
    },
  );

  it('a server that refuses rotated-out tokens passes, and forks under overlap fail it (CVE-2026-1035)', async () => {
    const strict = await ruleIn('hook', [], { strictRotation: true, storeDelayMs: 3 });
    expect([strict.status, strict.observations[0]]).toEqual(['passed', expect.stringMatching(/refused, and the chain goes on$/)]);
    const forking = await ruleIn('hook', ['rotation-forks-under-overlap'], { strictRotation: true });
    expect([forking.status, forking.reason]).toEqual(['failed', expect.stringMatching(/expected at most 1 token returned by the \d exchanges/)]);
  });

  it.for(['hookless', 'partner-only'] as const)('%s mode (no browser): skipped, saying why', async (mode) => {
    const rule = await ruleIn(mode, ['rotation-forks-under-overlap']);
    expect([rule.status, rule.reason]).toEqual(['skipped', expect.stringMatching(/needs API tokens tack owns/)]);
  });
});
