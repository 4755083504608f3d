/**
 * The check layer's own rules: every verdict in the steps, suites and scenarios comes from a check
 * that looks at something (no finding with a constant condition), the checks are rule-agnostic
 * (src/checks/ names no rule: the caller does), and each check file has its own table-driven test.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/rules/catalog.js';
import { constantConditions } from '../helpers/constant-conditions.js';
import { ROOT as root, sources } from '../helpers/sources.js';
const files = ['src/checks', 'src/steps', 'suites', 'scenarios', 'load-profiles'].flatMap((d) => sources(join(root, d)));

describe('the check layer', () => {
  it('no check has a constant condition', () => {
    const offenders = files.flatMap((file) =>
      constantConditions(readFileSync(file, 'utf8'), file).map(({ line, text }) => `${relative(root, file)}:${line}: ${text}`),
    );
    expect(offenders).toEqual([]);
  });

  it('the guard reads the syntax tree: a condition wrapped onto the next line is found too', () => {
    const source = [
      "t.check('PARTNER-MINT', 'same line', finding(true, 'x', 'y'));",
      't.soft(',
      "  'PARTNER-MINT',",
      "  'a long title that makes Biome wrap the call',",
      '  finding(',
      '    // a comment does not hide it either',
      '    true,',
      "    'an access token',",
      "    'none found',",
      '  ),',
      ');',
      "t.check('PARTNER-MINT', 'written out', {",
      '  expected: "x",',
      '  ok:',
      '    !0,',
      '  actual: "y",',
      '});',
      "t.soft('PARTNER-MINT', 'looks at something', finding(minted.access !== undefined, 'x', 'y'));",
      'const fine = { ok: res.status === 200 };',
    ].join('\n');
    expect(constantConditions(source).map(({ line, text }) => `${line}: ${text}`)).toEqual(['1: true', '7: true', '14: ok: !0']);
  });

  it('the checks name no rule: the test that calls one does', () => {
    const ids = RULES.map((r) => r.id);
    const offenders = sources(join(root, 'src', 'checks')).filter((file) => ids.some((id) => readFileSync(file, 'utf8').includes(`'${id}'`)));
    expect(offenders.map((f) => relative(root, f))).toEqual([]);
  });

  it('every check file has its table-driven unit test at the same path under test/', () => {
    const untested = sources(join(root, 'src', 'checks'))
      .map((file) => relative(join(root, 'src', 'checks'), file).replace(/\.ts$/, ''))
      .filter((name) => !existsSync(join(root, 'test', 'checks', `${name}.test.ts`)));
    expect(untested).toEqual([]);
  });
});
