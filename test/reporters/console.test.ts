/** The console's lines (src/reporters/console.ts). */
import { describe, expect, it } from 'vitest';
import { ruleLine } from '../../src/reporters/console.js';
import { replayArgs } from '../../src/reporters/judged-exchanges.js';
import { DOC } from './fixture.js';

describe('the console replay line', () => {
  it('carries the env file and the faults, so pasting it reaches the same target', () => {
    const rule = { ...DOC.rules[0]!, status: 'failed' as const };
    const line = ruleLine(rule, replayArgs({ envFile: 'uat env/target.env', faults: ['x'] }, false));
    expect(line).toContain("replay: tack run --seed 42 --path 3:1 --only PARTNER-SECRET-EXACT --env-file 'uat env/target.env'");
    expect(line).not.toContain('--fault');
  });
});
