/**
 * What a test needs to run (its preconditions) and the parts of its rules it checks only with more.
 */
import type { Capability } from '../harness/clients/hook.js';
import type { RuleId } from '../rules/catalog.js';

/**
 * Preconditions. Each is met by configuration variables or a hook capability:
 * - `partner`: TACK_PARTNER_CLIENT_ID / TACK_PARTNER_SECRET (tenant A's key)
 * - `other-tenant`: TACK_OTHER_BASE_URL
 * - `other-partner`: TACK_OTHER_PARTNER_CLIENT_ID / TACK_OTHER_PARTNER_SECRET (tenant B's key)
 * - `api-token`: some personal API token to exchange: from the hook, or the hookless token file
 * - `own-token`: API tokens tack generates itself, so destructive steps are allowed: the hook (users
 *   and api-tokens), or the token page (a browser and a user who can sign in, see `user-password`)
 * - `browser`: a Chromium executable (TACK_BROWSER, Playwright's own, or /usr/bin/chromium)
 * - `user-password`: a user tack can sign in with at the web pages: the hook's users and passwords
 *   capabilities (tack creates its own), or TACK_USER_EMAIL with TACK_USER_PASSWORD
 * - `hook:<capability>`: the target's test hook lists that capability
 * - `reader`: a user whose reads tack knows: one it creates and gives read access (hook `businesses`
 *   and `access`), or TACK_USER_EMAIL (who reads at least one business by contract)
 * - `reader-token`: a personal API token of such a user (TokenSource.reader)
 * - `known-reads`: permissions tack knows to compare a token with: the hook's `businesses` and
 *   `access`, or a `reader-token`
 */
export type Need =
  | 'partner'
  | 'other-tenant'
  | 'other-partner'
  | 'api-token'
  | 'own-token'
  | 'browser'
  | 'user-password'
  | 'reader'
  | 'reader-token'
  | 'known-reads'
  | `hook:${Capability}`;

/**
 * A part of a rule that a test checks only where more than its own needs is met (e.g. the
 * concurrent chains of SIGNIN-ROTATION need tokens tack owns). Where `needs` are not met the test
 * still runs, without that part (`t.can(part)` is false), and the rule is at best skipped, saying
 * what was not checked and why; `tack doctor` foresees it from the same declaration.
 */
export interface TestPart {
  readonly rule: RuleId;
  readonly title: string;
  readonly needs: readonly Need[];
}
