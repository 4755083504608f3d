import { defineConfig } from 'vitest/config';
import HeaviestFirst from './test/helpers/heaviest-first.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
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
