import { defineConfig } from 'vitest/config';
import HeaviestFirst from './test/helpers/heaviest-first.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 3,
    sequence: { sequencer: HeaviestFirst },
  },
});
