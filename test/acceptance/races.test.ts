/**
 * SIGNIN-ROTATION-ATOMIC against the reference's race faults and variants, in the modes where tack
 * owns tokens (and where it does not: skipped, saying why). The fault matrices run every fault and
 * variant over every rule; this file is the quick, focused proof.
 */
import { describe, expect, it } from 'vitest';
import { FAULTS } from '../../src/reference/faults.js';
import type { Mode } from '../helpers/modes.js';
import { runInMode } from './fault-matrix.js';

const RULE = 'SIGNIN-ROTATION-ATOMIC';
const RACE_FAULTS = FAULTS.filter((f) => f.storeDelayMs !== undefined);

const statusIn = async (mode: Mode, faults: readonly string[]) => {
  const result = await runInMode(mode, faults, { only: [RULE] });
  return result.rules.find((r) => r.id === RULE)!;
};

describe('SIGNIN-ROTATION-ATOMIC', () => {
  it.for(['hook', 'reduced-hook'] as const)('%s mode: passes on the reference, observing its policy', async (mode) => {
    const rule = await statusIn(mode, []);
    expect([rule.status, rule.reason]).toEqual(['passed', expect.any(String)]);
    expect(rule.observations.join('\n')).toMatch(/each reuse ends the token it replaced/);
  });

  it.for(RACE_FAULTS.flatMap((f) => (['hook', 'reduced-hook'] as const).map((mode) => [mode, f.name, f.conformant === true] as const)))(
    '%s mode, %s',
    async ([mode, fault, conformant]) => {
      const rule = await statusIn(mode, [fault]);
      expect([rule.status, rule.reason]).toEqual([conformant ? 'passed' : 'failed', expect.any(String)]);
    },
  );

  it.for(['hookless', 'partner-only'] as const)('%s mode (no browser): skipped, saying why', async (mode) => {
    const rule = await statusIn(mode, ['rotation-forks-under-overlap']);
    expect(rule.status).toBe('skipped');
    expect(rule.reason).toMatch(/needs API tokens tack owns/);
  });
});
