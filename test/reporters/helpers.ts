/**
 * A reference server started by the test (so it outlives a run and curl commands can be replayed
 * against it), an env file of its TACK_* variables, and `tack run` in-process into a fresh folder.
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand, type RunCommandOptions } from '../../src/cli/conformance-run.js';
import { type ReferenceOptions, startReferenceServer, type ReferenceServer } from '../../src/reference/index.js';

export interface Target {
  readonly server: ReferenceServer;
  /** The server's TACK_* variables (they hold its secrets). */
  readonly env: Record<string, string>;
  /** The same variables as a dotenv file. */
  readonly envFile: string;
  readonly dir: string;
}

export async function startTarget(faults: readonly string[] = [], options: ReferenceOptions = {}): Promise<Target> {
  const server = await startReferenceServer({ ...options, faults });
  const env: Record<string, string> = { ...server.env };
  // Hook mode only: a hookless user without its token file is not a usable configuration.
  if (env.TACK_USER_EMAIL !== undefined && env.TACK_API_TOKEN_FILE === undefined) delete env.TACK_USER_EMAIL;
  const dir = mkdtempSync(join(tmpdir(), 'tack-reports-test-'));
  const envFile = join(dir, 'target.env');
  writeFileSync(
    envFile,
    `${Object.entries(env)
      .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
      .join('\n')}\n`,
    { mode: 0o600 },
  );
  return { server, env, envFile, dir };
}

export interface InProcessRun {
  readonly code: number;
  readonly out: string;
  /** The run folder (reports/<run-id>). */
  readonly runDir: string;
}

/** `tack run` in-process against `env`, into a fresh reports folder. */
export async function runInProcess(env: Record<string, string>, opts: Partial<RunCommandOptions> & { only: string[] }): Promise<InProcessRun> {
  const reports = opts.reports ?? mkdtempSync(join(tmpdir(), 'tack-run-'));
  let out = '';
  const code = await runCommand({ runs: 12, seed: 1, strict: false, fault: [], quiet: false, ...opts, reports }, (s) => (out += s), env);
  const runs = readdirSync(reports).filter((n) => !n.startsWith('.'));
  const runId = /run (\S+)/.exec(out)?.[1];
  const runDir = join(reports, runId && runs.includes(runId) ? runId : runs.sort().at(-1)!);
  return { code, out, runDir };
}
