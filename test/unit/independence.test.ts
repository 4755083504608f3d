/**
 * The checks and the reference server are independent implementations of the spec: nothing on
 * the checking side imports the reference server (only the session starts it as a process-local
 * server, through its public entry point).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

describe('independence of checks and reference server', () => {
  it('suites, scenarios, fixtures, the harness and the independent test targets do not import src/reference', () => {
    const offenders = ['suites', 'scenarios', 'fixtures', 'src/harness', 'src/load', 'test/fixtures']
      .flatMap((d) => {
        try {
          return sources(join(root, d));
        } catch {
          return [];
        }
      })
      .filter((file) => !file.endsWith(join('src', 'harness', 'session.ts')))
      .filter((file) => /from\s+['"][^'"]*\/reference\/|import\(['"][^'"]*\/reference\//.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(offenders).toEqual([]);
  });
});
