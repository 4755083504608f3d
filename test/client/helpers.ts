/**
 * `tack client` in-process for tack's own tests: a profile, a command, a fresh reports folder; the
 * run's results.json, report.html and console output read back.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientCommand, type ClientCommandOptions } from '../../src/cli/client-run.js';
import type { ResultsDocument, ReportRule } from '../../src/reporters/results-schema.js';

export const FIXTURE = join(import.meta.dirname, '..', 'subjects', 'clients', 'client.mjs');
export const MISBEHAVING = join(import.meta.dirname, '..', 'subjects', 'clients', 'misbehaving.mjs');

export interface ClientRun {
  readonly exit: number;
  readonly out: string;
  readonly runDir: string;
  readonly doc: ResultsDocument;
  readonly rules: ReadonlyMap<string, ReportRule>;
  readonly ms: number;
}

export async function runClientInProcess(
  profile: string,
  command: readonly string[],
  opts: Partial<ClientCommandOptions> = {},
  env: NodeJS.ProcessEnv = process.env,
): Promise<ClientRun> {
  const reports = mkdtempSync(join(tmpdir(), 'tack-client-test-'));
  let out = '';
  const started = performance.now();
  const exit = await clientCommand(profile, command, { reports, ...opts }, (s) => (out += s), env);
  const ms = performance.now() - started;
  const runDir = join(reports, readdirSync(reports).find((n) => !n.startsWith('.'))!);
  const doc = JSON.parse(readFileSync(join(runDir, 'results.json'), 'utf8')) as ResultsDocument;
  return { exit, out, runDir, doc, rules: new Map(doc.rules.map((r) => [r.id, r])), ms };
}

/** Every rule that is not `passed`, as `ID: status: reason`. */
export function notPassed(run: ClientRun): string[] {
  return run.doc.rules.filter((r) => r.status !== 'passed').map((r) => `${r.id}: ${r.status}: ${r.reason}`);
}
