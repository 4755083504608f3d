/**
 * The password guard (src/harness/browser/password-guard.ts): after the first sign-in with
 * TACK_USER_PASSWORD that did not end signed in, it is typed no more; the password is blamed only
 * when the page refused it, not when the page showed something else (a lock without a form).
 */
import { describe, expect, it } from 'vitest';
import { isTackError } from '../../../src/harness/errors.js';
import { PasswordGuard } from '../../../src/harness/browser/password-guard.js';

describe('the password guard', () => {
  it('an account lock was reported as TACK_ERR_USER_PASSWORD: a page without a form is TACK_ERR_SIGN_IN_REFUSED, the password not blamed', () => {
    const guard = new PasswordGuard('pw', 'alice@acme.example');
    const error = guard.notTaken('pw', 'showing "Your account is temporarily locked"', 'page');
    expect(isTackError(error, 'TACK_ERR_SIGN_IN_REFUSED')).toBe(true);
    expect(guard.refusedCode).toBe('TACK_ERR_SIGN_IN_REFUSED');
    expect(isTackError(guard.refused, 'TACK_ERR_SIGN_IN_REFUSED')).toBe(true);
    expect(error!.message).toMatch(/^signing in as alice@acme\.example with TACK_USER_PASSWORD did not end signed in \(showing "Your account/);
    expect(error!.message).not.toContain('check TACK_USER_PASSWORD');
    expect(() => guard.before('pw')).toThrow(/did not end signed in at the first attempt of this run: not typed again/);
    expect(guard.refusedAt).toBe(error!.message);
  });

  it('the password asked for again: blamed; the first refusal is the one the run reports', () => {
    const guard = new PasswordGuard('pw', 'alice@acme.example');
    const first = guard.notTaken('pw', 'the form again');
    guard.notTaken('pw', 'later', 'page');
    expect(first!.message).toContain('check TACK_USER_PASSWORD');
    expect(isTackError(first, 'TACK_ERR_USER_PASSWORD')).toBe(true);
    expect(guard.refusedCode).toBe('TACK_ERR_USER_PASSWORD');
    expect(guard.refusedAt).toBe(first!.message);
    expect(() => guard.before('pw')).toThrow(/did not accept TACK_USER_PASSWORD at the first attempt/);
  });

  it('another password (a user tack created, the deliberate wrong one) is neither stopped nor counted', () => {
    const guard = new PasswordGuard('pw', 'alice@acme.example');
    expect(guard.notTaken('tack-wrong-x', 'the form again')).toBeUndefined();
    expect(guard.refused).toBeUndefined();
    expect(() => guard.before('pw')).not.toThrow();
  });
});
