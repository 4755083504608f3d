/**
 * The checks and the reference server are independent implementations of the spec: nothing on the
 * checking side imports the reference server. The built-in server is started by the command line
 * (src/cli/built-in.ts) and handed to the session; there is no exemption.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT as root, sources } from '../helpers/sources.js';

describe('independence of checks and reference server', () => {
  it('suites, scenarios, fixtures, the harness, load, the reporters and the independent test targets do not import src/reference', () => {
    const offenders = [
      'suites',
      'scenarios',
      'load-profiles',
      'fixtures',
      'src/checks',
      'src/steps',
      'src/harness',
      'src/runner',
      'src/doctor',
      'src/load',
      'src/reporters',
      'test/subjects',
    ]
      .flatMap((d) => sources(join(root, d)))
      .filter((file) => /from\s+['"][^'"]*\/reference\/|import\(['"][^'"]*\/reference\//.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(offenders).toEqual([]);
  });

  it('the reporters and the harness do not import the command line', () => {
    const offenders = ['src/harness', 'src/runner', 'src/doctor', 'src/checks', 'src/steps', 'src/reporters', 'src/load']
      .flatMap((d) => sources(join(root, d)))
      .filter((file) => /from\s+['"][^'"]*\/cli\//.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(offenders).toEqual([]);
  });

  it('the client judges (suites/client) work on recorded data only: they import neither the reference nor the client runner', () => {
    const offenders = [...sources(join(root, 'suites', 'client')), ...sources(join(root, 'src', 'checks'))]
      .filter((file) => /from\s+['"][^'"]*(\/reference\/|src\/client\/)/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(offenders).toEqual([]);
  });
});
