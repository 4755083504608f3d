/**
 * Starts the slowest test files first. vitest orders files by the durations in its cache, but CI
 * runs on a fresh clone with no cache, and then vitest orders them by size: a three-line file that
 * runs a whole fault matrix in Chromium would start last and run alone at the end. The list below
 * comes from a measured run (seconds on a 2-core machine, three files at a time: a fresh clone's CI run, 2026-11-27); the other files follow in vitest's order.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SLOWEST: readonly string[] = [
  'test/acceptance/fault-matrix-token-page-hook.test.ts', // ~118
  'test/acceptance/fault-matrix-hook-1.test.ts', // ~105
  'test/acceptance/fault-matrix-token-page-hookless.test.ts', // ~73
  'test/acceptance/fault-matrix-hook-2.test.ts', // ~62
  'test/package/package.test.ts', // ~54
  'test/acceptance/independent-token-page-hookless.test.ts', // ~26
  'test/robustness/token-file-kill.test.ts', // ~26
  'test/client/faults-personal-token.test.ts', // ~26
  'test/acceptance/user-password.test.ts', // ~24
  'test/acceptance/independent-token-page-seen.test.ts', // ~23
  'test/acceptance/independent-token-page.test.ts', // ~21
  'test/acceptance/dialect-modes.test.ts', // ~20
  'test/acceptance/redaction.test.ts', // ~19
  'test/acceptance/conformance.test.ts', // ~15
  'test/client/faults-partner-key.test.ts', // ~14
  'test/acceptance/fault-matrix-max-tolerance.test.ts', // ~14
  'test/acceptance/fault-matrix-reduced-hook.test.ts', // ~14
  'test/acceptance/fault-matrix-hookless.test.ts', // ~14
  'test/robustness/broken-targets.test.ts', // ~13
];

export default class HeaviestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const byDefault = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const i = SLOWEST.findIndex((path) => spec.moduleId.endsWith(path));
      return i === -1 ? SLOWEST.length : i;
    };
    return byDefault
      .map((spec, i) => ({ spec, i }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.i - b.i)
      .map(({ spec }) => spec);
  }
}
