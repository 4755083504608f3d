/**
 * The end every run shares (`tack run`, `tack client`, both certifications): the outcome, the
 * reports, the summary and where they are, and the run in memory for a certification to bundle.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { endRun } from '../../src/cli/run-end.js';
import { resolveTarget, validateEnv } from '../../src/harness/config.js';
import { EXIT } from '../../src/harness/errors.js';
import { Interrupt } from '../../src/harness/interrupt.js';
import { Redactor } from '../../src/harness/redactor.js';
import { Transcript } from '../../src/harness/transcript.js';
import type { RunResult } from '../../src/runner/index.js';
import type { RuleResult } from '../../src/runner/results.js';

const target = resolveTarget(
  validateEnv({ TACK_BASE_URL: 'https://acme.uat.example.com', TACK_IDENTITY_URL: 'https://id.uat.example.com/realms/payroll' }),
  false,
);

const failed: RuleResult = {
  id: 'SIGNIN-REVOKE',
  level: 'MUST',
  area: 'sign-in',
  section: '§4.2',
  text: 'x',
  status: 'failed',
  reason: 'revoke answered 200, the token still works',
  durationMs: 3,
  checks: [{ rule: 'SIGNIN-REVOKE', test: 'sign-in/revoke', title: 'the token is dead', ok: false, expected: '400', actual: '200', exchanges: [] }],
  observations: [],
  unverified: [],
  cutShort: [],
  tests: ['sign-in/revoke'],
};

const result: RunResult = {
  runId: 'r-end',
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:01.000Z',
  seed: 1,
  numRuns: 12,
  capabilities: [],
  hookContract: undefined,
  hookProblem: undefined,
  fieldsUsed: {},
  rules: [failed],
  tests: [{ id: 'sign-in/revoke', title: 'revoke', rules: ['SIGNIN-REVOKE'], status: 'failed', reason: failed.reason, durationMs: 3 }],
  deadline: undefined,
};

async function end(interrupt?: Interrupt) {
  const reportsDir = mkdtempSync(join(tmpdir(), 'tack-run-end-'));
  let out = '';
  const session = { target, redactor: new Redactor(), transcript: new Transcript(), runId: result.runId };
  const policy = { strict: false, requireAll: false };
  const ended = await endRun(session, result, { policy, baseline: undefined, interrupt, only: [], reportsDir }, (s) => (out += s));
  return { ended, out, reportsDir };
}

describe('endRun', () => {
  it('decides the exit code, writes the reports, prints the summary and where they are, and returns the document written', async () => {
    const { ended, out, reportsDir } = await end();
    expect(ended.exitCode).toBe(EXIT.mustFailed);
    expect(ended.dir).toBe(join(reportsDir, 'r-end'));
    expect(out).toContain('Not holding:');
    expect(out.endsWith(`\nReports: ${ended.dir}\n`)).toBe(true);
    expect(JSON.parse(readFileSync(join(ended.dir, 'results.json'), 'utf8'))).toEqual(JSON.parse(JSON.stringify(ended.document)));
    expect(ended.document.run.exitCode).toBe(EXIT.mustFailed);
  });

  it("ends a stopped run with the signal's exit code, in the reports too", async () => {
    const interrupt = new Interrupt();
    interrupt.trigger('SIGTERM');
    const { ended } = await end(interrupt);
    expect(ended.exitCode).toBe(EXIT.sigterm);
    expect(ended.document.run.exitCode).toBe(EXIT.sigterm);
  });
});
