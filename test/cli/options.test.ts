/**
 * The option grammar (src/cli/options.ts): one parser per kind of value, each reading back what it
 * writes, each refusing with one error (`OptionError`: TACK_ERR_USAGE, the option and the kind).
 */
import { Command } from 'commander';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  deprecationNotice,
  durationText,
  formerOption,
  OptionError,
  type OptionKind,
  parseCount,
  parseDuration,
  parseHeaderPair,
  parseList,
  parseNumber,
  parsePercentage,
  parsePercentageOrRate,
  parseRate,
} from '../../src/cli/options.js';

/** The refusal of `parse()`: its code, option and kind (never its words). */
function refusal(parse: () => unknown): { code: string; option: string; kind: OptionKind } | undefined {
  try {
    parse();
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(OptionError);
    const { code, option, kind } = error as OptionError;
    return { code, option, kind };
  }
}

describe('parseDuration', () => {
  it.each([
    ['30', 30_000],
    ['30s', 30_000],
    ['500ms', 500],
    ['1.5m', 90_000],
    ['1h', 3_600_000],
    [' 2 s ', 2000],
    ['250us', 0],
  ])('a bare number is seconds, a unit is honoured: %s → %d ms', (text, ms) => {
    expect(parseDuration(text, '--duration')).toBe(ms);
  });

  it('a bare number is in the unit the option always had: milliseconds for --store-delay-ms', () => {
    expect(parseDuration('50', '--store-delay-ms', { bare: 'ms' })).toBe(50);
    expect(parseDuration('1s', '--store-delay-ms', { bare: 'ms' })).toBe(1000);
  });

  it('reads back what durationText writes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 * 3_600_000 }), (ms) => {
        expect(parseDuration(durationText(ms), '--duration')).toBe(ms);
      }),
    );
    expect([durationText(90_000), durationText(120_000), durationText(1500)]).toEqual(['90s', '2m', '1500ms']);
  });

  it.each([
    ['', {}],
    ['10 sec', {}],
    ['-5s', {}],
    ['ten', {}],
    ['5d', {}],
    ['500ms', { minMs: 1000 }],
    ['11s', { maxMs: 10_000 }],
  ])('refuses %j (%j)', (text, limits) => {
    expect(refusal(() => parseDuration(text, '--warmup', limits))).toEqual({ code: 'TACK_ERR_USAGE', option: '--warmup', kind: 'duration' });
  });
});

describe('parseRate', () => {
  it.each([
    ['2000', 2000],
    ['2000/s', 2000],
    [' 0.5 / s ', 0.5],
    ['0', 0],
  ])('%j → %d req/s', (text, rate) => {
    expect(parseRate(text, '--rate')).toBe(rate);
  });

  it('reads back a rate written as N or N/s', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.boolean(), (n, perSecond) => {
        expect(parseRate(`${n}${perSecond ? '/s' : ''}`, '--rate')).toBe(n);
      }),
    );
  });

  it.each(['', 'fast', '-5', '100/m', '1e3', '100 rps'])('refuses %j', (text) => {
    expect(refusal(() => parseRate(text, '--rate'))).toEqual({ code: 'TACK_ERR_USAGE', option: '--rate', kind: 'rate' });
  });
});

describe('parseCount', () => {
  it('reads back every whole number in range', () => {
    fc.assert(
      fc.property(fc.nat(), (n) => {
        expect(parseCount(String(n), '--runs')).toBe(n);
      }),
    );
  });

  it.each([
    ['', {}],
    ['1.5', {}],
    ['-1', {}],
    ['12x', {}],
    ['0', { min: 1 }],
    ['65536', { max: 65535 }],
  ])('refuses %j (%j)', (text, limits) => {
    expect(refusal(() => parseCount(text, '--port', limits))).toEqual({ code: 'TACK_ERR_USAGE', option: '--port', kind: 'count' });
  });
});

describe('parseNumber', () => {
  it('reads a factor', () => {
    expect(parseNumber('1.5', '--rate-factor', '1.5')).toBe(1.5);
  });

  it.each(['', 'twice', '-2'])('refuses %j', (text) => {
    expect(refusal(() => parseNumber(text, '--rate-factor', '1.5'))).toEqual({ code: 'TACK_ERR_USAGE', option: '--rate-factor', kind: 'number' });
  });
});

describe('parsePercentage', () => {
  it.each([
    ['20%', {}, 20],
    [' 7.5 % ', {}, 7.5],
    ['0', {}, 0],
    ['100%', { max: 100 }, 100],
    ['20', { bare: 'percent' as const }, 20],
  ])('%j (%j) → %d percent', (text, limits, pct) => {
    expect(parsePercentage(text, '--tolerance-pct', limits)).toBe(pct);
  });

  it('reads back what is written with a percent sign', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), (tenths) => {
        expect(parsePercentage(`${tenths / 10}%`, '--race-probe')).toBe(tenths / 10);
      }),
    );
  });

  it.each([
    ['20', {}],
    ['', {}],
    ['-5%', {}],
    ['twenty', {}],
    ['20%%', {}],
    ['5 percent', {}],
    ['101%', { max: 100 }],
  ])('refuses %j (%j): a percentage says so', (text, limits) => {
    expect(refusal(() => parsePercentage(text, '--race-probe', limits))).toEqual({ code: 'TACK_ERR_USAGE', option: '--race-probe', kind: 'percentage' });
  });
});

describe('parsePercentageOrRate', () => {
  it('a share with its sign, else requests per second', () => {
    expect(parsePercentageOrRate('5%', '--resolution')).toEqual({ pct: 5 });
    expect(parsePercentageOrRate('250', '--resolution')).toEqual({ rps: 250 });
  });

  it.each(['fine', '0', '0%', '100%'])('refuses %j', (text) => {
    expect(refusal(() => parsePercentageOrRate(text, '--resolution'))?.option).toBe('--resolution');
  });
});

describe('parseHeaderPair', () => {
  const token = fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,20}$/);

  it('reads back two different header names', () => {
    fc.assert(
      fc.property(token, token, (a, b) => {
        fc.pre(a.toLowerCase() !== b.toLowerCase());
        expect(parseHeaderPair(`${a},${b}`, '--partner-headers')).toEqual([a, b]);
        expect(parseHeaderPair(` ${a} , ${b} `, '--partner-headers')).toEqual([a, b]);
      }),
    );
  });

  it.each(['X-Key', 'A,B,C', 'Same,same', 'Bad Name,X', ',X', 'A,'])('refuses %j', (text) => {
    expect(refusal(() => parseHeaderPair(text, '--partner-headers'))).toEqual({ code: 'TACK_ERR_USAGE', option: '--partner-headers', kind: 'header-pair' });
  });
});

describe('parseList', () => {
  it('splits on commas, drops blanks, and adds to what an earlier use gave', () => {
    expect(parseList(' A, ,B ', ['X'])).toEqual(['X', 'A', 'B']);
  });
});

describe('formerOption', () => {
  it('keeps the former spelling working, and says once what it is now', async () => {
    const notices: string[] = [];
    let seen: Record<string, unknown> = {};
    const command = new Command('x').exitOverride().option('--rate <n>', 'rate', (v: string) => parseRate(v, '--rate'));
    formerOption(
      command,
      '--max-rps <n>',
      '--rate',
      (v) => parseRate(v, '--max-rps'),
      (line) => notices.push(line),
    );
    command.action((opts: Record<string, unknown>) => {
      seen = opts;
    });
    await command.parseAsync(['--max-rps', '5'], { from: 'user' });
    expect(seen).toEqual({ maxRps: 5 });
    expect(notices).toEqual([deprecationNotice('--max-rps', '--rate')]);
    expect(notices[0]).toMatch(/^tack: TACK_DEPRECATED: --max-rps\b[^\n]*\n$/);
  });

  it('is hidden from help', () => {
    const command = formerOption(new Command('x'), '--max-rps <n>', '--rate', undefined, () => undefined);
    expect(command.helpInformation()).not.toContain('--max-rps');
  });
});
