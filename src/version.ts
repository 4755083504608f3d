/**
 * tack's version, read once from its package.json: shown on the console, in reports and bundles.
 * The file is found by walking up from this module, so the same code works from the sources
 * (src/version.ts) and from the compiled package (dist/src/version.js).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function packageJson(): { version: string } {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as { version: string };
    const parent = dirname(dir);
    if (parent === dir) throw new Error('tack cannot find its package.json');
    dir = parent;
  }
}

export const TACK_VERSION: string = packageJson().version;
