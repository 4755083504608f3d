/**
 * The check layer's own rules: every verdict in the steps, suites and scenarios comes from a check
 * that looks at something (no finding with a constant condition), the checks are rule-agnostic
 * (src/checks/ names no rule: the caller does), and each check file has its own table-driven test.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/rules/catalog.js';
import { ROOT as root, sources } from '../helpers/sources.js';
const files = ['src/checks', 'src/steps', 'suites', 'scenarios'].flatMap((d) => sources(join(root, d)));

describe('the check layer', () => {
  it('no check has a constant condition', () => {
    const constant = /finding\(\s*(true|false)\s*,|\bok:\s*(true|false)\b|\.(check|soft)\([^)]*,\s*(true|false)\s*,/;
    const offenders = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => [line, i] as const)
        .filter(([line]) => constant.test(line))
        .map(([, i]) => `${relative(root, file)}:${i + 1}`),
    );
    expect(offenders).toEqual([]);
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
