/**
 * `tack` as a real child process (`node bin/tack.mjs ...` in the repository), for tests that stop or
 * kill it: a bare environment (PATH, HOME, no colour), its output collected, how it exited.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { ROOT } from './sources.js';

export interface TackProcess {
  readonly child: ChildProcess;
  /** stdout and stderr so far, interleaved. */
  output(): string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnTack(args: readonly string[]): TackProcess {
  const child = spawn(process.execPath, ['bin/tack.mjs', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => out, exited };
}
