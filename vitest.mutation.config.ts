/**
 * The unit tests that mutation testing (`npm run mutation`, stryker.config.json) runs against each
 * mutant: the tests at the paths of the code that decides verdicts, and nothing that starts a server,
 * a client or a run. A mutant survives when these tests pass with it.
 */
import { defineConfig } from 'vitest/config';
import { scaled } from './test/helpers/time-limits.js';

export default defineConfig({
  test: {
    include: [
      'test/checks/**/*.test.ts',
      'test/harness/redactor*.test.ts',
      // The redactor's edges the reports rely on, unit tests too.
      'test/reporters/redactor-edges.test.ts',
      'test/harness/browser/visible-text*.test.ts',
      'test/suites/client/judges*.test.ts',
      'test/suites/client/judges/**/*.test.ts',
      'test/runner/baseline-*.test.ts',
      'test/runner/exit-policy*.test.ts',
    ],
    // A speed check is no verdict, and run once per mutant it would take hours: left out.
    testNamePattern: /^(?!.*redacts as fast).*$/,
    testTimeout: scaled(60_000),
    hookTimeout: scaled(60_000),
    pool: 'forks',
  },
});
