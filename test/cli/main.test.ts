/**
 * The `tack` process (src/cli/main.ts): a former spelling prints its one-line notice; a value an
 * option refuses, and a command line commander refuses, end the process with TACK_ERR_USAGE on
 * stderr and exit 2.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { scaled } from '../helpers/time-limits.js';

function tack(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--', 'bin/tack.mjs', ...args], { cwd: new URL('../../', import.meta.url).pathname });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

describe('tack on the command line', () => {
  it(
    'a former spelling: one TACK_DEPRECATED line; a refused value: TACK_ERR_USAGE naming the option, exit 2, before any run',
    async () => {
      const { code, stderr } = await tack(['run', '--max-rps', '5', '--rate', 'fast', '--reports-dir', '/nonexistent/reports']);
      expect(code, stderr).toBe(2);
      const lines = stderr.trim().split('\n');
      expect(lines.map((l) => /^tack: (TACK_[A-Z_]+): (--[a-z-]+) /.exec(l)?.slice(1))).toEqual([
        ['TACK_DEPRECATED', '--max-rps'],
        ['TACK_ERR_USAGE', '--rate'],
      ]);
    },
    scaled(30_000),
  );

  it(
    'an option commander does not know is TACK_ERR_USAGE too, exit 2',
    async () => {
      const { code, stderr } = await tack(['run', '--no-such-option']);
      expect(code, stderr).toBe(2);
      expect(stderr.split('\n')[0]).toMatch(/^tack: TACK_ERR_USAGE: .*--no-such-option/);
    },
    scaled(30_000),
  );
});
