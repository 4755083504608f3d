/**
 * Which tests a run starts, and which cannot run here. A test runs when it declares a selected rule
 * (`--only`, or every rule); since a test records verdicts only on rules it declares, `--only RULE`
 * runs exactly the tests a full run would judge RULE with.
 */
import { SERVER_RULES, type RuleId } from '../../rules/catalog.js';
import { type BrowserLookup, findBrowser } from '../browser/executable.js';
import type { HookClient } from '../clients/hook.js';
import type { Capability, Need, TargetConfig, TestCase } from '../types.js';

export interface Selection {
  readonly rules: readonly RuleId[];
  readonly tests: readonly TestCase[];
  /** Index (in `tests`) of the last test declaring each rule: its verdict is final after it. */
  readonly lastTestOf: ReadonlyMap<RuleId, number>;
}

export function selectTests(all: readonly TestCase[], only: readonly string[]): Selection {
  const wanted = new Set(only);
  // Server rules only: the client rules (area client) are judged by tack client, against a program, not a target.
  const rules = SERVER_RULES.filter((r) => wanted.size === 0 || wanted.has(r.id)).map((r) => r.id as RuleId);
  const selected = new Set<RuleId>(rules);
  const tests = all.filter((t) => t.rules.some((r) => selected.has(r)));
  const lastTestOf = new Map<RuleId, number>();
  tests.forEach((t, i) => {
    for (const r of t.rules) if (selected.has(r)) lastTestOf.set(r, i);
  });
  return { rules, tests, lastTestOf };
}

/** A user tack can sign in with at the web pages: its own through the hook, or TACK_USER_EMAIL with TACK_USER_PASSWORD. */
export function hasWebUser(target: TargetConfig, hook: HookClient | undefined): boolean {
  return (hook?.has('users') && hook.has('passwords')) || (target.userEmail !== undefined && target.userPassword !== undefined);
}

const NO_WEB_USER =
  'needs a user tack can sign in with at the web pages: the test hook with the users and passwords capabilities, or TACK_USER_EMAIL with TACK_USER_PASSWORD';

/** Why a test cannot run here: each missing variable, capability or program, named. */
export function unmetNeeds(
  needs: readonly Need[],
  target: TargetConfig,
  hook: HookClient | undefined,
  hookProblem: string | undefined,
  browser: BrowserLookup = findBrowser(target.browser),
): string[] {
  const out: string[] = [];
  const hookMissing = (capability: string) => {
    if (!target.hook) return `needs the test hook (TACK_HOOK_URL, TACK_HOOK_TOKEN) with the ${capability} capability`;
    if (!hook) return `needs the test hook, which is not usable: ${hookProblem ?? 'unknown problem'}`;
    return `the target's test hook does not offer the ${capability} capability`;
  };
  for (const need of needs) {
    switch (need) {
      case 'partner':
        if (!target.partner) out.push("needs tenant A's partner key (TACK_PARTNER_CLIENT_ID, TACK_PARTNER_SECRET)");
        break;
      case 'other-tenant':
        if (!target.otherBaseUrl) out.push("needs tenant B's host (TACK_OTHER_BASE_URL)");
        break;
      case 'other-partner':
        if (!target.otherPartner || !target.otherBaseUrl)
          out.push("needs tenant B's partner key (TACK_OTHER_BASE_URL, TACK_OTHER_PARTNER_CLIENT_ID, TACK_OTHER_PARTNER_SECRET)");
        break;
      case 'api-token': {
        const fromHook = hook?.has('users') && hook.has('api-tokens');
        if (!fromHook && !target.hookless && !(browser.found && hasWebUser(target, hook))) {
          const aBrowser = browser.found ? 'a browser' : `a browser: ${browser.reason}`;
          out.push(
            'needs a personal API token: the test hook with the users and api-tokens capabilities (TACK_HOOK_URL, TACK_HOOK_TOKEN), ' +
              'or TACK_USER_EMAIL with TACK_API_TOKEN_FILE, ' +
              `or tokens generated through the token page (TACK_USER_EMAIL with TACK_USER_PASSWORD, and ${aBrowser})`,
          );
        }
        break;
      }
      case 'own-token': {
        const fromHook = hook?.has('users') && hook.has('api-tokens');
        if (!fromHook && !(browser.found && hasWebUser(target, hook))) {
          const page = !browser.found ? `a browser (${browser.reason})` : 'TACK_USER_EMAIL with TACK_USER_PASSWORD';
          const hookWay = 'the test hook with the users and api-tokens capabilities (TACK_HOOK_URL, TACK_HOOK_TOKEN)';
          out.push(`needs API tokens tack owns: ${hookWay}, or tokens generated through the token page, which needs ${page}`);
        }
        break;
      }
      case 'browser':
        if (!browser.found) out.push(`needs a browser: ${browser.reason}`);
        break;
      case 'user-password':
        if (!hasWebUser(target, hook)) out.push(NO_WEB_USER);
        break;
      default: {
        const capability = need.slice('hook:'.length) as Capability;
        if (!hook?.has(capability)) out.push(hookMissing(capability));
      }
    }
  }
  return [...new Set(out)];
}
