import type { TestCase } from '../../src/harness/types.js';
import { headersRequired, tamperedHeaders } from './headers.js';

export const PARTNER_KEY_TESTS: readonly TestCase[] = [headersRequired, tamperedHeaders];
