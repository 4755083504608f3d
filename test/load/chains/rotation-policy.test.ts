/**
 * The race probe's set-up (src/load/chains/rotation-policy.ts): off when turned off, and off on a
 * token pool (its tokens are the operator's: a probe may end or fork a chain). The policy seen on
 * a hook chain is covered by test/load/race-probe.test.ts against the reference server.
 */
import { describe, expect, it } from 'vitest';
import { raceSetup } from '../../../src/load/chains/rotation-policy.js';
import type { ChainSet, SetupContext } from '../../../src/load/profile.js';

function context(said: string[]): SetupContext {
  return { hook: undefined, say: (line: string) => said.push(line) } as unknown as SetupContext;
}

const pool: ChainSet = { chains: [], source: 'pool', emails: [] };

describe('raceSetup', () => {
  it('is off at a share of 0, and says so in the result', async () => {
    const race = await raceSetup(context([]), pool, 0);
    expect(race).toMatchObject({ chains: 0, policy: undefined, judged: false, result: { share: 0, chains: 0, policy: null } });
  });

  it('is off on a token pool, and tells the operator why', async () => {
    const said: string[] = [];
    const race = await raceSetup(context(said), pool, 0.1);
    expect(race.chains).toBe(0);
    expect(race.result.policy).toBeNull();
    expect(race.result.seen).toContain('token pool');
    expect(said.join('\n')).toContain('race probe off');
  });
});
