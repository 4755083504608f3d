/** Fake tests and a runner call without a target, shared by the runner's tests. */
import { resolveTarget, validateEnv } from '../../src/harness/config.js';
import { finding } from '../../src/checks/finding.js';
import { HttpClient } from '../../src/harness/http.js';
import { Redactor } from '../../src/harness/redactor.js';
import { runConformance } from '../../src/runner/index.js';
import { Transcript } from '../../src/harness/transcript.js';
import type { TestContext } from '../../src/runner/test-context.js';
import type { TestCase } from '../../src/runner/test-case.js';
import type { TargetConfig } from '../../src/harness/target-config.js';
import type { RuleResult } from '../../src/runner/results.js';

export const TARGET: TargetConfig = resolveTarget(
  validateEnv({ TACK_BASE_URL: 'http://acme.localhost:1', TACK_IDENTITY_URL: 'http://id.localhost:1/realms/payroll' }),
  false,
);

export function fake(id: string, rules: TestCase['rules'], run: TestCase['run'], needs: TestCase['needs'] = []): TestCase {
  return { id, title: id, rules, needs, run };
}

export async function run(tests: TestCase[], only: string[] = [], onRule?: (r: RuleResult) => void) {
  const redactor = new Redactor();
  const transcript = new Transcript();
  const http = new HttpClient({ timeoutMs: 1000, insecureTls: false, redactor, transcript });
  try {
    return await runConformance({
      target: TARGET,
      tests,
      only,
      seed: 1,
      numRuns: 5,
      path: undefined,
      runId: 'r1',
      http,
      redactor,
      transcript,
      ...(onRule ? { onRule } : {}),
    });
  } finally {
    await http.close();
  }
}

export const pass = (rule: TestCase['rules'][number]) => async (t: TestContext) => t.check(rule, 'holds', finding(true, 'x', 'x'));
