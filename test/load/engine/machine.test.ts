/** The machine a load run ran on (src/load/engine/machine.ts), recorded in every result. */
import { cpus } from 'node:os';
import { describe, expect, it } from 'vitest';
import { describeMachine, loadNow, machineNow } from '../../../src/load/engine/machine.js';

describe('machineNow', () => {
  it('records the cores, the Node version and the load average before and after, rounded to hundredths', () => {
    const m = machineNow().finish();
    expect(m.cores).toBe(cpus().length);
    expect(m.node).toBe(process.version);
    expect(m.cpu).not.toMatch(/\s{2}|^\s|\s$/);
    for (const load of [...m.loadBefore, ...m.loadAfter]) expect(Math.round(load * 100) / 100).toBe(load);
    expect(m.loadBefore).toHaveLength(3);
    expect(m.loadAfter).toHaveLength(3);
  });
});

describe('describeMachine', () => {
  it('says the CPU, the cores, Node and the 1-minute load before and after', () => {
    const text = describeMachine({ cpu: 'AMD EPYC', cores: 2, node: 'v20.0.0', platform: 'linux', loadBefore: [0.5, 1, 1], loadAfter: [1.944, 1, 1] });
    expect(text).toBe('AMD EPYC, 2 core(s), Node v20.0.0, load average 0.50 before → 1.94 after');
  });
});

describe('loadNow', () => {
  it('gives the 1-minute load and the cores', () => {
    const now = loadNow();
    expect(now.cores).toBe(cpus().length);
    expect(now.load).toBeGreaterThanOrEqual(0);
  });
});
