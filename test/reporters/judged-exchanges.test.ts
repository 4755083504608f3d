/**
 * The replay command of a failed property: one builder for the console line and results.json, so
 * a pasted command reaches the same target (the env file quoted for the shell, the faults of the
 * built-in server only).
 */
import { describe, expect, it } from 'vitest';
import { replayArgs, replayCommand } from '../../src/reporters/judged-exchanges.js';

describe('replayCommand', () => {
  it('repeats the seed, the path and the rule, then the arguments that reach the same target', () => {
    expect(replayCommand('SIGNIN-LIFECYCLE', { seed: 42, path: '0:1' }, ['--fault x'])).toBe('tack run --seed 42 --path 0:1 --only SIGNIN-LIFECYCLE --fault x');
    expect(replayCommand('SIGNIN-LIFECYCLE', { seed: 42, path: undefined }, [])).toBe('tack run --seed 42 --only SIGNIN-LIFECYCLE');
  });
});

describe('replayArgs', () => {
  it('quotes an env file path the shell would split, and names faults only for the built-in server', () => {
    expect(replayArgs({ envFile: "uat env/it's.env", faults: ['x'] }, false)).toEqual([`--env-file 'uat env/it'\\''s.env'`]);
    expect(replayArgs({ envFile: 'uat.env', faults: ['x', 'y'] }, true)).toEqual(['--env-file uat.env', '--fault x', '--fault y']);
    expect(replayArgs({ faults: [] }, true)).toEqual([]);
  });
});
