/**
 * resultsDocument is the one builder of results.json: a run's verdicts, or a run that ended before
 * them (its error reports). Both pass the schema and say the target's mode by one rule.
 */
import { describe, expect, it } from 'vitest';
import { resolveTarget, validateEnv } from '../../src/harness/config.js';
import { type EndedEarly, resultsDocument } from '../../src/reporters/json.js';
import { resultsSchema } from '../../src/reporters/results-schema.js';
import type { RunResult } from '../../src/runner/index.js';

const withHook = resolveTarget(
  validateEnv({
    TACK_BASE_URL: 'https://acme.uat.example.com',
    TACK_IDENTITY_URL: 'https://id.uat.example.com/realms/payroll',
    TACK_HOOK_URL: 'https://acme.uat.example.com/__tack',
    TACK_HOOK_TOKEN: 'hook-token',
  }),
  false,
);

const extra = { version: '0.0.0', strict: false, requireAll: false, only: [], faults: ['x'], exitCode: 2, rules: [], baseline: undefined };

const ended: EndedEarly = {
  runId: 'r1',
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:01.000Z',
  seed: 1,
  numRuns: 12,
  error: { code: 'TACK_ERR_UNREACHABLE', message: 'the target did not answer' },
};

const result: RunResult = {
  runId: 'r2',
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:01.000Z',
  seed: 1,
  numRuns: 12,
  capabilities: [],
  hookContract: undefined,
  hookProblem: 'the hook answered 404',
  fieldsUsed: {},
  rules: [],
  tests: [],
  deadline: undefined,
};

describe('resultsDocument', () => {
  it('writes a run that ended before its verdicts: its error, no rule, no test, the target as configured', () => {
    const doc = resultsDocument(ended, withHook, extra);
    expect(resultsSchema.safeParse(doc).success).toBe(true);
    expect(doc.run.status).toBe('error');
    expect(doc.error).toEqual(ended.error);
    expect(doc.rules).toEqual([]);
    expect(doc.tests).toEqual([]);
    expect(doc.target.mode).toBe('hook');
    expect(doc.target.hook).toBeUndefined();
    expect(doc.run.faults).toEqual([]);
  });

  it('says interrupted for a run stopped before its verdicts', () => {
    const doc = resultsDocument({ ...ended, error: { code: 'TACK_ERR_INTERRUPTED', message: 'stopped' } }, undefined, extra);
    expect(doc.run.status).toBe('interrupted');
    expect(doc.target.mode).toBe('none');
    expect(doc.target.baseUrl).toBe('');
  });

  it('reads the mode of a run with verdicts from the hook it discovered, not from the configuration', () => {
    const doc = resultsDocument(result, withHook, extra);
    expect(resultsSchema.safeParse(doc).success).toBe(true);
    expect(doc.run.status).toBe('complete');
    expect(doc.error).toBeUndefined();
    expect(doc.target.mode).toBe('none');
    expect(doc.target.hook).toEqual({ url: 'https://acme.uat.example.com/__tack', contract: undefined, capabilities: [], problem: 'the hook answered 404' });
    expect(resultsDocument({ ...result, capabilities: ['users'] }, withHook, extra).target.mode).toBe('hook');
  });
});
