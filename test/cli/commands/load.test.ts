/**
 * `tack load`'s options (src/cli/commands/load.ts): `--compare` and `--tolerance-pct`, their former
 * spellings with a notice, and every value refused with the option and its kind before any load.
 */
import { describe, expect, it } from 'vitest';
import { type LoadCommandLine, type LoadCommandOptions, loadCommand, loadOptionsOf, registerLoad } from '../../../src/cli/commands/load.js';
import { LOAD_DEFAULTS } from '../../../src/load/defaults.js';
import { deprecated, parseCommandLine, refusalOf } from './command-line.js';

async function load(...args: string[]) {
  const parsed = await parseCommandLine(registerLoad, ['load', 'exchange', ...args]);
  const [, , cli] = parsed.given as [string, string[], LoadCommandLine | undefined];
  return { ...parsed, opts: cli && loadOptionsOf(cli) };
}

describe('tack load: the comparison with an earlier result is --compare', () => {
  it('--compare FILE --tolerance-pct 5%: no notice', async () => {
    const { opts, stderr, error } = await load('--compare', 'before.json', '--tolerance-pct', '5%');
    expect(error).toBeUndefined();
    expect([opts?.compare, opts?.tolerancePct]).toEqual(['before.json', '5%']);
    expect(deprecated(stderr)).toEqual([]);
  });

  it('the tolerance defaults to a percentage that says so', async () => {
    expect((await load()).opts?.tolerancePct).toBe(`${LOAD_DEFAULTS.tolerancePct}%`);
  });

  it('--baseline FILE --tolerance 5, the former spellings, still work, each with one notice', async () => {
    const { opts, stderr } = await load('--baseline', 'before.json', '--tolerance', '5');
    expect([opts?.compare, opts?.tolerancePct]).toEqual(['before.json', '5']);
    expect(deprecated(stderr)).toEqual(['--baseline', '--tolerance']);
  });

  it('--reports D, the former name of --reports-dir, with its notice', async () => {
    const { opts, stderr } = await load('--reports', 'elsewhere');
    expect(opts?.reports).toBe('elsewhere');
    expect(deprecated(stderr)).toEqual(['--reports']);
  });

  it('--connections is a count', async () => {
    expect(refusalOf((await load('--connections', 'many')).error)).toEqual({ code: 'TACK_ERR_USAGE', option: '--connections', kind: 'count' });
  });
});

const base: LoadCommandOptions = {
  connections: 2,
  threshold: [],
  tolerancePct: '20%',
  reports: 'reports',
  allowRemote: false,
  fault: [],
  failOnErrors: true,
  quiet: true,
};

describe('tack load refuses a value with the option and its kind (TACK_ERR_USAGE), before any load', () => {
  it.each([
    [{ duration: '10 sec' }, '--duration', 'duration'],
    [{ warmup: 'soon' }, '--warmup', 'duration'],
    [{ timeout: '-1s' }, '--timeout', 'duration'],
    [{ rate: 'fast' }, '--rate', 'rate'],
    [{ tolerancePct: 'twenty' }, '--tolerance-pct', 'percentage'],
    [{ raceProbe: '10' }, '--race-probe', 'percentage'],
    [{ raceProbe: '101%' }, '--race-probe', 'percentage'],
    [{ sut: 'k', sutVcpus: '0' }, '--sut-vcpus', 'number'],
    [{ prometheus: 'http://127.0.0.1:9/api/v1/write', pushInterval: '500ms' }, '--push-interval', 'duration'],
    [{ findCapacity: true, startRate: 'fast' }, '--start-rate', 'rate'],
    [{ findCapacity: true, rateFactor: 'twice' }, '--rate-factor', 'number'],
    [{ findCapacity: true, stepDuration: '5 s s' }, '--step-duration', 'duration'],
    [{ findCapacity: true, resolution: '100%' }, '--resolution', 'percentage-or-rate'],
  ] as const)('%j', async (flags, option, kind) => {
    const io = { write: () => undefined, progress: () => undefined };
    const error = await loadCommand('exchange', [], { ...base, ...flags }, io, {}).catch((e: unknown) => e);
    expect(refusalOf(error)).toEqual({ code: 'TACK_ERR_USAGE', option, kind });
  });
});
