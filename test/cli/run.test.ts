/**
 * `tack run` says, in words a CI reader sees, when a green run did not check every MUST rule, and
 * `--require-all` turns such a run into a failure (certification runs with it).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/conformance-run.js';
import { targetFor } from '../helpers/modes.js';

const reports = mkdtempSync(join(tmpdir(), 'tack-run-'));
afterAll(() => rmSync(reports, { recursive: true, force: true }));

async function hookless(requireAll: boolean): Promise<{ exit: number; out: string; summary: string }> {
  const { server, env } = await targetFor('partner-only');
  let out = '';
  try {
    const only = ['PARTNER-MINT', 'SIGNIN-REVOKE'];
    const exit = await runCommand({ only, runs: 2, seed: 3, strict: false, requireAll, reports, fault: [], quiet: true }, (s) => (out += s), env);
    const dir = /Reports: (.*)/.exec(out)![1]!.trim();
    return { exit, out, summary: readFileSync(join(dir, 'summary.md'), 'utf8') };
  } finally {
    await server.close();
  }
}

describe('a run that could not check every MUST rule', () => {
  it('passes, and says how many MUST rules it did not check', async () => {
    const { exit, out, summary } = await hookless(false);
    expect(exit).toBe(0);
    expect(out).toContain('PASSED (1 MUST rule not checked): every MUST rule checked holds; run with --require-all');
    expect(summary).toContain('PASSED (1 MUST rule not checked)');
  });

  it('fails with --require-all', async () => {
    const { exit, out } = await hookless(true);
    expect(exit).toBe(1);
    expect(out).toContain('FAILED: 1 rule not met (1 MUST rule not checked, --require-all: SIGNIN-REVOKE)');
  });
});

describe('a run that ends before its verdicts still writes its reports', () => {
  function reportsOf(out: string): { results: Record<string, unknown>; junit: string } {
    const dir = /Reports: (.*)/.exec(out)![1]!.trim();
    return {
      results: JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as Record<string, unknown>,
      junit: readFileSync(join(dir, 'junit.xml'), 'utf8'),
    };
  }

  it.each([
    ['a configuration error', { TACK_BASE_URL: 'http:38539//acme.localhost:38539', TACK_PARTNER_SECRET: 'do-not-print-this-secret' }, 'TACK_ERR_CONFIG'],
    ['an unreachable target', { TACK_BASE_URL: 'http://acme.localhost:1', TACK_IDENTITY_URL: 'http://id.localhost:1/realms/payroll' }, 'TACK_ERR_UNREACHABLE'],
  ])('%s: results.json with the error and its code, junit.xml with an error test case', async (_what, env, code) => {
    let out = '';
    const thrown = await runCommand({ only: [], runs: 1, seed: 1, strict: false, reports, fault: [], quiet: true }, (s) => (out += s), env).catch(
      (e: unknown) => e,
    );
    expect((thrown as { code?: string }).code).toBe(code);
    const { results, junit } = reportsOf(out);
    expect(results.error).toMatchObject({ code });
    expect(results.rules).toEqual([]);
    expect(junit).toContain(`type="${code}"`);
    expect(`${JSON.stringify(results)}${junit}`).not.toContain('do-not-print-this-secret');
    const { readResults } = await import('../../src/reporters/json.js');
    expect(() => readResults(join(/Reports: (.*)/.exec(out)![1]!.trim(), 'results.json'))).not.toThrow();
  });
});

describe('--only', () => {
  it('an unknown rule id is a usage error that says which rule was meant', async () => {
    const run = runCommand(
      { only: ['SIGNIN-ROTATOIN', 'NO-SUCH-THING'], runs: 1, strict: false, reports: 'reports', fault: [], quiet: true },
      () => undefined,
      {},
    );
    await expect(run).rejects.toThrow('--only names unknown rule ids: SIGNIN-ROTATOIN (did you mean SIGNIN-ROTATION?), NO-SUCH-THING (see: tack rules)');
  });
});
