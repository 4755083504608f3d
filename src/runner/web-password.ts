/**
 * TACK_USER_PASSWORD in a run: which tests would type it (none is started once the sign-in page
 * refused it, browser/password-guard.ts), and a password set that the run will not use, said.
 */
import type { ContextParts } from './test-context.js';
import type { TargetConfig } from '../harness/target-config.js';
import type { Need } from './needs.js';

/** Whether a test with these needs signs in as TACK_USER_EMAIL with TACK_USER_PASSWORD. */
export function usesWebPassword(needs: readonly string[], parts: Pick<ContextParts, 'web' | 'tokens' | 'target'>): boolean {
  if (parts.web.createsUsers || parts.target.userPassword === undefined) return false; // the hook's users have their own
  const has = (need: Need) => needs.includes(need);
  return has('user-password') || (has('own-token') && !parts.tokens.fromHook) || (has('api-token') && parts.tokens.fromPageOnly);
}

/**
 * What a run says about TACK_USER_PASSWORD when it will not type it: with the hook's `users` and
 * `passwords`, tack signs in as users it creates, so a wrong password would go unnoticed.
 */
export function passwordNotes(target: TargetConfig, hook: ContextParts['hook']): string[] {
  if (target.userPassword === undefined || hook?.has('users') !== true || !hook.has('passwords')) return [];
  return [
    "TACK_USER_PASSWORD is set but this run does not use it: with the test hook's users and passwords, tack signs in as users it creates; " +
      'tack doctor signs in with it once to check it',
  ];
}
