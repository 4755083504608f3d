/**
 * No line of a tracked .ts or .mjs file is longer than 160 characters (counted as characters, not
 * bytes). Biome formats code to that width (lineWidth 160), but it leaves long string literals,
 * template literals and comments as they are written: those are split by hand (a concatenation, a
 * named part, a second comment line), and this test keeps them split.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const MAX = 160;

describe('line length', () => {
  it(`no line of a tracked .ts or .mjs file is longer than ${MAX} characters`, () => {
    const files = execFileSync('git', ['ls-files', '*.ts', '*.mjs'], { cwd: repoRoot, encoding: 'utf8' })
      .split('\n')
      .filter((file) => file !== '' && existsSync(join(repoRoot, file)));
    expect(files.length).toBeGreaterThan(0);
    const long = files.flatMap((file) =>
      readFileSync(join(repoRoot, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => ([...line].length > MAX ? [`${file}:${i + 1}`] : [])),
    );
    expect(long).toEqual([]);
  });
});
