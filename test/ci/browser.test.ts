/**
 * In CI a missing browser fails tack's own test run. Without one every browser test is skipped
 * (the token page's fault matrix, the independent token page, report.html, doctor's browser part),
 * and a run that skips them all would be green having exercised no browser rule. Locally they are
 * skipped, saying why.
 */
import { describe, expect, it } from 'vitest';
import { BROWSER, inCi } from '../helpers/browser.js';

describe('a CI run of tack’s own tests', () => {
  it.runIf(inCi())('has a browser: without one every browser test would be skipped and the run green', () => {
    expect(BROWSER.found, BROWSER.found ? '' : `CI is set and ${BROWSER.reason}: the browser tests cannot run`).toBe(true);
  });

  it.each([
    [{ CI: 'true' }, true],
    [{ CI: '1' }, true],
    [{ CI: 'woodpecker' }, true],
    [{ CI: 'false' }, false],
    [{ CI: '0' }, false],
    [{ CI: '' }, false],
    [{}, false],
  ])('CI as CI systems set it: %o → %s', (env, ci) => {
    expect(inCi(env)).toBe(ci);
  });
});
