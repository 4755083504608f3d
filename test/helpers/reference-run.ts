/**
 * Runs the conformance suites in-process against a freshly started reference server (optionally
 * with faults) and returns the verdicts. Real HTTP on loopback; nothing is mocked.
 */
import { ALL_TESTS } from '../../suites/index.js';
import { runConformance, type RunResult } from '../../src/harness/runner/index.js';
import { startBuiltIn } from '../../src/cli/built-in.js';
import { openSession } from '../../src/harness/session.js';

export interface ReferenceRunOptions {
  readonly faults?: readonly string[];
  readonly only?: readonly string[];
  readonly seed?: number;
  readonly runs?: number;
  readonly env?: Record<string, string>;
  /** A dotenv file pointing at a target (then `faults` does not apply). */
  readonly envFile?: string;
}

export async function runAgainstReference(options: ReferenceRunOptions = {}): Promise<RunResult> {
  const session = await openSession({ env: options.env ?? {}, envFile: options.envFile, faults: options.faults ?? [], builtIn: startBuiltIn });
  try {
    return await runConformance({
      target: session.target,
      tests: ALL_TESTS,
      only: options.only ?? [],
      seed: options.seed ?? 42,
      numRuns: options.runs ?? 8,
      path: undefined,
      runId: session.runId,
      http: session.http,
      redactor: session.redactor,
      transcript: session.transcript,
      ledger: session.ledger,
    });
  } finally {
    await session.close();
  }
}

export function statusOf(result: RunResult, rule: string): string | undefined {
  return result.rules.find((r) => r.id === rule)?.status;
}
