/** `tack run`'s options (src/cli/commands/run.ts): the grammar's parsers, and the former spellings with their notice. */
import { describe, expect, it } from 'vitest';
import { registerRun, type RunCommandLine, runOptionsOf } from '../../../src/cli/commands/run.js';
import { deprecated, parseCommandLine, refusalOf } from './command-line.js';

async function run(...args: string[]) {
  const parsed = await parseCommandLine(registerRun, ['run', ...args]);
  const [opts] = parsed.given as [RunCommandLine | undefined];
  return { ...parsed, options: opts && runOptionsOf(opts) };
}

describe('tack run: rates are --rate', () => {
  it('--rate 5 caps the run at 5 requests per second, with no notice', async () => {
    const { options, stderr, error } = await run('--rate', '5');
    expect(error).toBeUndefined();
    expect(options?.maxRps).toBe(5);
    expect(deprecated(stderr)).toEqual([]);
  });

  it('--max-rps 5, the former spelling, still does, with one deprecation notice', async () => {
    const { options, stderr } = await run('--max-rps', '5');
    expect(options?.maxRps).toBe(5);
    expect(deprecated(stderr)).toEqual(['--max-rps']);
    expect(stderr).toHaveLength(1);
  });

  it('--reports D, the former name of --reports-dir, still works, with its notice', async () => {
    const { options, stderr } = await run('--reports', 'elsewhere');
    expect(options?.reports).toBe('elsewhere');
    expect(deprecated(stderr)).toEqual(['--reports']);
  });
});

describe('tack run refuses a value with the option and its kind (TACK_ERR_USAGE)', () => {
  it.each([
    [['--rate', 'fast'], '--rate', 'rate'],
    [['--max-rps', '-1'], '--max-rps', 'rate'],
    [['--seed', 'x'], '--seed', 'count'],
    [['--runs', '1.5'], '--runs', 'count'],
  ])('%j', async (args, option, kind) => {
    expect(refusalOf((await run(...args)).error)).toEqual({ code: 'TACK_ERR_USAGE', option, kind });
  });
});
