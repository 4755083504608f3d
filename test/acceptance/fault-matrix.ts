/**
 * The fault matrix: for every reference fault, the rules it breaks are reported failed (MUST) or
 * warning (SHOULD). Split over two test files so vitest runs the halves in parallel.
 */
import { describe, expect, it } from 'vitest';
import { FAULTS } from '../../src/reference/faults.js';
import { getRule } from '../../src/rules/catalog.js';
import { runAgainstReference } from '../helpers/reference-run.js';

/** Until the browser checks of issue 10 land, the token-page faults have no check to catch them here. */
const unchecked = (rules: readonly string[]): boolean => rules.every((id) => getRule(id)?.area === 'token-page');

export function faultMatrix(shard: number, shards: number): void {
  const mine = FAULTS.filter((f) => !unchecked(f.rules)).filter((_, i) => i % shards === shard);
  describe(`fault matrix (${shard + 1}/${shards})`, () => {
    it.each(mine.map((f) => [f.name, f] as const))('%s is caught by the rule it breaks', async (_name, fault) => {
      const result = await runAgainstReference({ faults: [fault.name], only: fault.rules });
      for (const rule of fault.rules) {
        const r = result.rules.find((x) => x.id === rule)!;
        const expected = getRule(rule)!.level === 'MUST' ? 'failed' : 'warning';
        expect(`${rule}: ${r.status}`, `${rule} under fault ${fault.name}: ${r.reason}`).toBe(`${rule}: ${expected}`);
      }
    });
  });
}
