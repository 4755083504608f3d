import fc from 'fast-check';
import { it } from 'vitest';
import { lifecycleCommands } from '../../suites/sign-in/model/commands.js';
it('dist', async () => {
  const arb = lifecycleCommands({ toleranceS: 5, canDisable: true, maxCommands: 24 });
  const counts: Record<string, number> = {};
  for (let seed = 1; seed < 100; seed++)
  await fc.check(fc.property(arb, (c) => { for (const x of c) { const k = String(x).replace(/\(.*\)/, (m) => m.replace(/clock (to|by) /, '').replace(/after moving the /, '')); counts[k] = (counts[k] ?? 0) + 1; } }), { seed, numRuns: 12 });
  console.log(Object.entries(counts).filter(([k]) => k.startsWith('Use')).sort());
});
