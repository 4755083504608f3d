/** The token page, checked in a browser (spec §1, §3, §5, §7, §8; shared/contracts/token-page.md). */
import type { TestCase } from '../../src/harness/types.js';
import { copy, copyBlocked } from './copy.js';
import { display } from './display.js';
import { featureOff } from './feature-off.js';
import { cancelled, noToken, signinUnreachable } from './messages.js';
import { noList } from './no-list.js';
import { owner } from './owner.js';
import { reauth } from './reauth.js';
import { shownOnce } from './shown-once.js';

export const TOKEN_PAGE_TESTS: readonly TestCase[] = [reauth, owner, copy, display, shownOnce, noList, copyBlocked, signinUnreachable, cancelled, noToken, featureOff];
