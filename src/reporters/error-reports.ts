/**
 * Reports of a run that ended before its verdicts: a configuration error, an unreachable target.
 * A pipeline's artifact and JUnit steps must never find nothing, so the run folder is written as
 * usual (results.json with the error and its TACK_ERR_* code, junit.xml with one error test case,
 * summary.md and report.html saying why), from the same renderers as every other run.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TackError } from '../harness/errors.js';
import type { Redactor } from '../harness/redactor.js';
import { TACK_VERSION } from '../version.js';
import { renderHtml } from './report-html.js';
import { type EndedEarly, resultsDocument, writeJsonReports } from './json.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import type { TargetConfig } from '../harness/target-config.js';

interface ErrorRun {
  readonly runId: string;
  readonly startedAt: Date;
  readonly reportsDir: string;
  readonly error: TackError;
  /** The target, when the configuration was valid enough to know it. */
  readonly target: TargetConfig | undefined;
  readonly seed: number;
  readonly numRuns: number;
  readonly only: readonly string[];
  readonly policy: { readonly strict: boolean; readonly requireAll: boolean };
}

export function writeErrorReports(run: ErrorRun, redactor: Redactor): string {
  const ended: EndedEarly = {
    runId: run.runId,
    startedAt: run.startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    seed: run.seed,
    numRuns: run.numRuns,
    error: { code: run.error.code, message: redactor.redact(run.error.message) },
  };
  const doc = resultsDocument(ended, run.target, {
    version: TACK_VERSION,
    strict: run.policy.strict,
    requireAll: run.policy.requireAll,
    only: run.only,
    faults: [],
    exitCode: run.error.exitCode,
    rules: [],
    baseline: undefined,
  });
  const dir = join(run.reportsDir, run.runId);
  writeJsonReports(dir, doc, [], redactor);
  for (const [name, text] of [
    ['junit.xml', renderJunit(doc)],
    ['summary.md', renderMarkdown(doc)],
    ['report.html', renderHtml(doc, [])],
  ] as const) {
    writeFileSync(join(dir, name), redactor.redact(text));
  }
  return dir;
}
