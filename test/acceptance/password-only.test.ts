/**
 * TACK_USER_EMAIL with TACK_USER_PASSWORD and a browser, no hook and no token file: the token page
 * is tack's only source of API tokens. The rules judged on "a personal API token" (exchange,
 * rotation, what the user's token lists...) are then checked on a token tack generates through the
 * page, exactly as with a token file, and not skipped; with a fault, the rule it breaks fails.
 * Without Chromium this says so and is skipped (those rules are then skipped, naming the browser).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/runner/index.js';
import { FAULTS } from '../../src/reference/faults.js';
import type { RuleId } from '../../src/rules/catalog.js';
import { ALL_TESTS } from '../../suites/index.js';
import { hasChromium } from './fault-matrix-token-page.js';
import { deviations, runInMode, statuses } from './fault-matrix.js';

/** Rules of the tests that need an API token and nothing of the hook or the other tenant. */
const TOKEN_RULES: readonly RuleId[] = [
  ...new Set(
    ALL_TESTS.filter((t) => t.needs.includes('api-token') && t.needs.every((n) => n === 'api-token' || n === 'partner')).flatMap(
      (t) => t.rules as readonly RuleId[],
    ),
  ),
];

describe.skipIf(!hasChromium)('password only: API tokens generated through the token page', () => {
  let clean: RunResult;
  beforeAll(async () => {
    clean = await runInMode('password-only', [], { browser: true, only: TOKEN_RULES });
  });

  it('judges every rule of a personal API token, on tokens from the page, and all of them pass', () => {
    expect(TOKEN_RULES).toEqual(expect.arrayContaining(['SIGNIN-EXCHANGE', 'SIGNIN-ROTATION']));
    expect(clean.rules.filter((r) => r.status !== 'passed').map((r) => `${r.id}: ${r.status}: ${r.reason}`)).toEqual([]);
  });

  it('fails exactly the rule a fault breaks (the exchange returns the same refresh token)', async () => {
    const fault = FAULTS.find((f) => f.name === 'rotation-same-token')!;
    const result = await runInMode('password-only', [fault.name], { browser: true, only: TOKEN_RULES });
    expect(result.rules.find((r) => r.id === 'SIGNIN-ROTATION')?.status).toBe('failed');
    expect(deviations(fault, statuses(clean), result)).toEqual([]);
  });
});
