/**
 * `reports/<run-id>/results.json` and `transcript.jsonl`: the machine-readable record of a run.
 * Everything written here goes through the redactor.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Redactor } from '../harness/redactor.js';
import type { RunResult } from '../harness/runner.js';
import type { Transcript } from '../harness/transcript.js';
import type { TargetConfig } from '../harness/types.js';
import { CATALOG_VERSION } from '../rules/catalog.js';

export const RESULTS_SCHEMA = 'tack-results/1';

export interface ResultsDocument {
  readonly schema: typeof RESULTS_SCHEMA;
  readonly tack: { readonly version: string; readonly catalog: string };
  readonly run: {
    readonly id: string;
    readonly startedAt: string;
    readonly finishedAt: string;
    readonly seed: number;
    readonly numRuns: number;
    readonly strict: boolean;
    readonly only: readonly string[];
    readonly exitCode: number;
  };
  readonly target: {
    readonly baseUrl: string;
    readonly otherBaseUrl: string | undefined;
    readonly identityUrl: string;
    readonly partnerHeaders: readonly string[];
    readonly clientId: string;
    readonly builtIn: boolean;
    readonly mode: 'hook' | 'hookless' | 'none';
    readonly hook: { readonly url: string; readonly contract: string | undefined; readonly capabilities: readonly string[]; readonly problem: string | undefined } | undefined;
    readonly toleranceS: number;
    readonly fieldsUsed: Record<string, string>;
  };
  readonly rules: RunResult['rules'];
  readonly tests: RunResult['tests'];
}

export function resultsDocument(result: RunResult, target: TargetConfig, extra: { version: string; strict: boolean; only: readonly string[]; exitCode: number }): ResultsDocument {
  return {
    schema: RESULTS_SCHEMA,
    tack: { version: extra.version, catalog: CATALOG_VERSION },
    run: { id: result.runId, startedAt: result.startedAt, finishedAt: result.finishedAt, seed: result.seed, numRuns: result.numRuns, strict: extra.strict, only: extra.only, exitCode: extra.exitCode },
    target: {
      baseUrl: target.baseUrl,
      otherBaseUrl: target.otherBaseUrl,
      identityUrl: target.identityUrl,
      partnerHeaders: target.partnerHeaders,
      clientId: target.clientId,
      builtIn: target.builtIn,
      mode: result.capabilities.length > 0 ? 'hook' : target.hookless ? 'hookless' : 'none',
      hook: target.hook ? { url: target.hook.url, contract: result.hookContract, capabilities: result.capabilities, problem: result.hookProblem } : undefined,
      toleranceS: target.toleranceS,
      fieldsUsed: result.fieldsUsed,
    },
    rules: result.rules,
    tests: result.tests,
  };
}

/** Writes results.json and transcript.jsonl into `dir`; returns their paths. */
export function writeJsonReports(dir: string, doc: ResultsDocument, transcript: Transcript, redactor: Redactor): { results: string; transcript: string } {
  mkdirSync(dir, { recursive: true });
  const results = join(dir, 'results.json');
  const transcriptPath = join(dir, 'transcript.jsonl');
  writeFileSync(results, redactor.redact(JSON.stringify(redactor.redactJson(doc), null, 2)) + '\n');
  const lines = transcript.redacted(redactor).map((e) => JSON.stringify(e));
  writeFileSync(transcriptPath, lines.length > 0 ? lines.join('\n') + '\n' : '');
  return { results, transcript: transcriptPath };
}
