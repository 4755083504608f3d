/** Skipped rules grouped by why, for the console and summary.md (src/reporters/skips.ts). */
import { describe, expect, it } from 'vitest';
import { groupSkips } from '../../src/reporters/skips.js';

describe('groupSkips', () => {
  it('groups skipped rules by why for the console and summary.md', () => {
    const hook = 'needs the test hook (TACK_HOOK_URL, TACK_HOOK_TOKEN) with the';
    const groups = groupSkips([
      { id: 'SIGNIN-IDLE-EXPIRY', reason: `${hook} clock, users and api-tokens capabilities` },
      { id: 'SIGNIN-REVOKE', reason: `${hook} users and api-tokens capabilities` },
      { id: 'TOKEN-PAGE-COPY', reason: 'needs a browser: none found' },
    ]);
    expect(groups).toEqual([
      { why: 'needs the test hook (TACK_HOOK_URL, TACK_HOOK_TOKEN): clock, users, api-tokens', rules: ['SIGNIN-IDLE-EXPIRY', 'SIGNIN-REVOKE'] },
      { why: 'needs a browser: none found', rules: ['TOKEN-PAGE-COPY'] },
    ]);
  });
});
