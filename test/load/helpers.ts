/**
 * Drives `tack load` in-process for the tests: the built-in reference server (no TACK_* variables),
 * output captured, results written to a temporary folder and read back.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCommand, type LoadCommandOptions } from '../../src/cli/commands/load.js';
import type { LoadResult } from '../../src/load/types.js';

export const dir = mkdtempSync(join(tmpdir(), 'tack-load-test-'));
// Removed when the worker ends, not after the first file: workers keep modules from one file to the
// next (isolate: false), so an afterAll here would delete the folder under the files that follow.
process.once('exit', () => rmSync(dir, { recursive: true, force: true }));

export function options(overrides: Partial<LoadCommandOptions> = {}): LoadCommandOptions {
  return {
    connections: 4,
    duration: '2s',
    warmup: '0s',
    threshold: [],
    tolerancePct: '20%',
    reports: dir,
    allowRemote: false,
    fault: [],
    failOnErrors: true,
    quiet: false,
    ...overrides,
  };
}

export interface Ran {
  readonly exitCode: number;
  readonly output: string;
  readonly progress: string;
  readonly result: LoadResult;
  /** The JSON text, and where it and the HTML page were written. */
  readonly json: string;
  readonly jsonFile: string;
  readonly htmlFile: string;
}

let n = 0;

/** Runs `tack load <profile>`; `env` defaults to none at all, i.e. the built-in server; `onWrite` sees each text as it is written. */
export async function load(
  profile: string,
  overrides: Partial<LoadCommandOptions> = {},
  env: NodeJS.ProcessEnv = {},
  onWrite?: (text: string) => void,
): Promise<Ran> {
  const out = overrides.out ?? join(dir, `${profile}-${++n}.json`);
  let output = '';
  let progress = '';
  const write = (s: string) => {
    output += s;
    onWrite?.(s);
  };
  const exitCode = await loadCommand(profile, [], options({ ...overrides, out }), { write, progress: (s) => (progress += s) }, env);
  const json = readFileSync(out, 'utf8');
  return { exitCode, output, progress, result: JSON.parse(json) as LoadResult, json, jsonFile: out, htmlFile: out.replace(/\.json$/, '.html') };
}
