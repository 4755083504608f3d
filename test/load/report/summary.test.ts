/**
 * The summary's word on the system under test: `--sut` and `--sut-vcpus` are recorded in the result
 * and shown, with the capacity per vCPU beside Keycloak's sizing figure (a comparison, never a
 * verdict: the exit code does not look at it).
 */
import { describe, expect, it } from 'vitest';
import { KEYCLOAK_REFRESH_PER_VCPU, sutLines } from '../../../src/load/report/summary.js';
import { emptyCounts, type Capacity, type LoadResult } from '../../../src/load/types.js';
import { load } from '../helpers.js';

const base = {
  measuredS: 10,
  measured: { ...emptyCounts(), responses: 48_000 },
  warmup: emptyCounts(),
  latency: { unit: 'us', byClass: {}, corrected: null },
} as unknown as LoadResult;
const capacity = (maxRate: number, verdict: 'stable' | 'unstable') => ({ maxRate, steps: [], settings: {}, stability: { verdict } }) as unknown as Capacity;

describe('sutLines', () => {
  it('nothing when no system under test was named', () => {
    expect(sutLines(base)).toEqual([]);
  });

  it('the name alone without a vCPU count', () => {
    expect(sutLines({ ...base, sut: { name: 'Keycloak 26.1, 2 pods', vcpus: null } })).toEqual(['system under test: Keycloak 26.1, 2 pods']);
  });

  it('a capacity per vCPU beside Keycloak’s 120 refresh-token grants/s per vCPU, said to be a comparison', () => {
    expect(KEYCLOAK_REFRESH_PER_VCPU).toBe(120);
    const lines = sutLines({ ...base, sut: { name: 'Keycloak 26.1', vcpus: 4 }, capacity: capacity(4800, 'stable') });
    expect(lines).toEqual([
      'system under test: Keycloak 26.1, 4 vCPU(s)',
      "per vCPU: 1 200 req/s (capacity 4 800 req/s held, on 4 vCPU(s)); Keycloak's sizing guide plans 120 refresh-token grants/s per vCPU: " +
        'a point of comparison, not a verdict',
    ]);
    const unstable = sutLines({ ...base, sut: { name: 'x', vcpus: 4 }, capacity: capacity(4800, 'unstable') });
    expect(unstable[1]).toContain('capacity 4 800 req/s held, unstable');
  });

  it('a fixed run: its throughput per vCPU', () => {
    expect(sutLines({ ...base, sut: { name: 'x', vcpus: 2 } })[1]).toMatch(/^per vCPU: 2 400 req\/s \(throughput 4 800 req\/s, on 2 vCPU\(s\)\)/);
  });
});

describe('tack load --sut', () => {
  it('is recorded in the result and shown in the summary and on the page', async () => {
    const run = await load('exchange', { duration: '1s', connections: 2, sut: 'reference, one process', sutVcpus: '1' });
    expect(run.result.sut).toEqual({ name: 'reference, one process', vcpus: 1 });
    expect(run.output).toContain('system under test: reference, one process, 1 vCPU(s)');
    expect(run.output).toMatch(/per vCPU: [\d ]+ req\/s \(throughput/);
    const html = await import('node:fs').then((fs) => fs.readFileSync(run.htmlFile, 'utf8'));
    expect(html).toContain('<th>system under test</th><td>reference, one process, 1 vCPU(s)</td>');
  });

  it.each([
    [{ sutVcpus: '4' }, '--sut-vcpus needs --sut'],
    [{ sut: 'x', sutVcpus: '0' }, '--sut-vcpus takes a positive number'],
    [{ sut: 'x', sutVcpus: 'four' }, '--sut-vcpus takes a number'],
    [{ sut: '  ' }, '--sut takes a description'],
  ])('%j is a usage error before any load', async (flags, words) => {
    await expect(load('exchange', flags)).rejects.toMatchObject({ code: 'TACK_ERR_USAGE', message: expect.stringContaining(words) });
  });
});
