/**
 * Writes every report of a run into `reports/<run-id>/` and says where. The exit code may be
 * changed by a baseline of expected failures (undefined: keep the runner's).
 */
import { join } from 'node:path';
import { exitCodeOf, type RunResult } from '../harness/runner.js';
import type { Session } from '../harness/session.js';
import { TACK_VERSION } from '../cli/options.js';
import { resultsDocument, writeJsonReports } from './json.js';

export interface WriteOptions {
  readonly strict: boolean;
  readonly only: readonly string[];
  readonly baseline: string | undefined;
  readonly reportsDir: string;
}

export interface Written {
  readonly dir: string;
  readonly files: readonly string[];
  readonly exitCode: number | undefined;
}

export async function writeRunReports(session: Session, result: RunResult, options: WriteOptions): Promise<Written> {
  const dir = join(options.reportsDir, session.runId);
  const exitCode = exitCodeOf(result, options.strict);
  const doc = resultsDocument(result, session.target, { version: TACK_VERSION, strict: options.strict, only: options.only, exitCode });
  const json = writeJsonReports(dir, doc, session.transcript, session.redactor);
  return { dir, files: [json.results, json.transcript], exitCode: undefined };
}
