import { defineConfig } from 'vitest/config';
import HeaviestFirst from './test/helpers/heaviest-first.js';
import { testBrowserEnv } from './test/helpers/test-browser.js';
import { scaled } from './test/helpers/time-limits.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The browser every run of a test drives (test/helpers/test-browser.ts): Debian's headless shell where installed.
    env: testBrowserEnv(process.env),
    // Guards against a hang, never a verdict on speed: they scale with the machine's load when the run
    // starts, or with TACK_TEST_TIME_FACTOR (test/helpers/time-limits.ts).
    testTimeout: scaled(60_000),
    hookTimeout: scaled(60_000),
    pool: 'forks',
    // Three workers on two cores: a run in Chromium waits on the browser as much as it computes.
    maxWorkers: 3,
    // A worker keeps the modules it has loaded from one file to the next (a quarter of the CPU time
    // went to loading them again). Tests restore what they change (process.stderr.write); nothing of
    // tack's keeps state in a module between runs.
    isolate: false,
    sequence: { sequencer: HeaviestFirst },
  },
});
