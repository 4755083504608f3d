/**
 * A client that fetches the pages after the first in two workers is within the contract
 * when its workers share one token chain (one access token, renewed once for both): every rule
 * passes, the parallel-pages scenario included, though its requests overlap. The fault whose
 * workers each exchange the one stored API token at once is in the fault matrix
 * (`parallel-exchange`, CLIENT-STORES-ROTATED-TOKEN).
 */
import { describe, expect, it } from 'vitest';
import { FIXTURE, notPassed, runClientInProcess } from './helpers.js';

describe('tack client: a client with parallel workers', () => {
  it('sharing one token chain, passes every personal-token rule (exit 0)', async () => {
    const run = await runClientInProcess('personal-token', [process.execPath, FIXTURE, '--parallel']);
    expect(notPassed(run)).toEqual([]);
    expect(run.exit).toBe(0);
    const parallel = run.doc.client!.scenarios.find((s) => s.id === 'parallel-pages')!;
    expect(parallel.runs.map((r) => r.exitCode)).toEqual([0, 0]);
    expect(parallel.runs[0]!.stdout).toContain('80 businesses');
  });
});
