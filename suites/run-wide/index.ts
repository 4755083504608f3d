/** Tests that judge the whole run's traffic: last in the run, so they see every exchange before them. */
import type { TestCase } from '../../src/runner/test-case.js';
import { everyAnswer } from './every-answer.js';

export const RUN_WIDE_TESTS: readonly TestCase[] = [everyAnswer];
