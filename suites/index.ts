/**
 * Every test tack runs, in order: the property-based rule suites, then the scenarios, then the
 * tests that judge the whole run's traffic (they must come last: they read every exchange before them).
 */
import { LIFECYCLE_TESTS } from '../scenarios/lifecycle/index.js';
import type { TestCase } from '../src/runner/test-case.js';
import { API_TESTS } from './api/index.js';
import { RUN_WIDE_TESTS } from './run-wide/index.js';
import { PARTNER_KEY_TESTS } from './partner-key/index.js';
import { SIGN_IN_TESTS } from './sign-in/index.js';
import { TOKEN_PAGE_TESTS } from './token-page/index.js';

const SUITE_TESTS: readonly TestCase[] = [...PARTNER_KEY_TESTS, ...API_TESTS, ...SIGN_IN_TESTS, ...TOKEN_PAGE_TESTS];

export const ALL_TESTS: readonly TestCase[] = [...SUITE_TESTS, ...LIFECYCLE_TESTS, ...RUN_WIDE_TESTS];
