/**
 * Tests mirror the files they test: src/<folder>/x/y.ts is tested by test/<folder>/x/y.test.ts
 * (exactly that path; a `y.edges.test.ts` beside it does not count). This test reports, per
 * folder, the share of source files that have their mirror, and keeps each share from falling
 * below its floor. Raise a floor when a folder gains mirrors; never lower one to make room.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Per folder: the lowest share (percent) of its source files with a test at the mirrored path. One line each, so merges stay trivial. */
const FLOORS: Record<string, number> = {
  harness: 63,
  load: 64,
  reporters: 66,
  runner: 66,
  doctor: 60,
  steps: 71,
};

function sourceFiles(folder: string): string[] {
  const dir = join(repoRoot, 'src', folder);
  return (readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[]).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')).sort();
}

/** The mirror of src/<folder>/<file>: test/<folder>/<file without .ts>.test.ts. */
function mirrorOf(folder: string, file: string): string {
  return join(repoRoot, 'test', folder, file.replace(/\.ts$/, '.test.ts'));
}

function mirroredShare(folder: string): { have: number; total: number; percent: number; missing: string[] } {
  const files = sourceFiles(folder);
  const missing = files.filter((f) => !existsSync(mirrorOf(folder, f))).map((f) => relative(repoRoot, join(repoRoot, 'src', folder, f)));
  const have = files.length - missing.length;
  return { have, total: files.length, percent: files.length === 0 ? 100 : Math.floor((100 * have) / files.length), missing };
}

describe('tests mirror the files they test', () => {
  it.each(Object.entries(FLOORS))('src/%s: the share of files with a mirrored test does not fall below its floor (%i%)', (folder, floor) => {
    const share = mirroredShare(folder);
    console.info(`src/${folder}: ${share.have}/${share.total} mirrored (${share.percent}%, floor ${floor}%)`);
    expect(share.total).toBeGreaterThan(0);
    expect(share.percent, `src/${folder} files without test/<same path>.test.ts:\n${share.missing.join('\n')}`).toBeGreaterThanOrEqual(floor);
  });

  it('counts only the exact mirror: y.edges.test.ts is not the mirror of y.ts', () => {
    expect(mirrorOf('harness', 'browser/visible-text.ts')).toBe(join(repoRoot, 'test/harness/browser/visible-text.test.ts'));
    expect(mirrorOf('harness', 'redactor.ts').endsWith('redactor.edges.test.ts')).toBe(false);
  });
});
