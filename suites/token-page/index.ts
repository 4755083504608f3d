/** The token page, checked in a browser (spec §1, §3, §5, §7, §8; docs/contracts/token-page.md). */
import type { TestCase } from '../../src/runner/test-case.js';
import { copyBlocked } from './copy-blocked.js';
import { display } from './display.js';
import { featureOff } from './feature-off.js';
import { generateToken } from './generate.js';
import { cancelled, noToken, signinUnreachable } from './messages.js';

export const TOKEN_PAGE_TESTS: readonly TestCase[] = [generateToken, display, copyBlocked, signinUnreachable, cancelled, noToken, featureOff];
