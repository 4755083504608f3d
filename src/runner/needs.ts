/**
 * What a test needs to run (its preconditions): one table, each need with what it means, what it
 * asks of the configuration in the words of target-config.md (`tack rules`), and, from the
 * configuration, why it is unmet here (the runner's selection and `tack doctor`). A `hook:<capability>`
 * need is met when the target's test hook lists that capability; any other text is no need at all.
 * A test also declares the parts of its rules it checks only with more (`TestPart`).
 */
import { type BrowserLookup, findBrowser } from '../harness/browser/executable.js';
import { ALL_CAPABILITIES, type Capability, type HookClient } from '../harness/clients/hook.js';
import { NO_READER } from '../harness/readers.js';
import type { TargetConfig } from '../harness/target-config.js';
import type { RuleId } from '../rules/catalog.js';

/** What decides whether a need is met: the configuration, the hook as discovered, the browser found. */
interface NeedEnv {
  readonly target: TargetConfig;
  readonly hook: HookClient | undefined;
  readonly hookProblem: string | undefined;
  readonly browser: BrowserLookup;
}

interface NeedEntry {
  /** What the test needs, in a line. */
  readonly meaning: string;
  /** What it asks of the configuration, in the words of target-config.md (what `tack rules` prints). */
  readonly asks: string;
  /** Why it is not met here; undefined when it is. */
  unmet(env: NeedEnv): string | undefined;
}

/** A user tack can sign in with at the web pages: its own through the hook, or TACK_USER_EMAIL with TACK_USER_PASSWORD. */
function hasWebUser(target: TargetConfig, hook: HookClient | undefined): boolean {
  return (hook?.has('users') && hook.has('passwords')) || (target.userEmail !== undefined && target.userPassword !== undefined);
}

/** tack can give users it creates read access (Readers.canGrant). */
function canGrant(hook: HookClient | undefined): boolean {
  return hook?.has('businesses') === true && hook.has('access');
}

/** TokenSource.hasReader, from the configuration: a token of a user whose reads tack knows. */
function hasReaderToken({ target, hook, browser }: NeedEnv): boolean {
  const fromHook = hook?.has('users') === true && hook.has('api-tokens');
  if (fromHook) return canGrant(hook);
  if (target.hookless) return true;
  const createsUsers = hook?.has('users') === true && hook.has('passwords');
  return browser.found && hasWebUser(target, hook) && (!createsUsers || canGrant(hook));
}

const tokensFromHook = (hook: HookClient | undefined): boolean => hook?.has('users') === true && hook.has('api-tokens');

/** Every need but the hook's capabilities, by name. */
export const NEEDS = {
  partner: {
    meaning: "tenant A's partner key",
    asks: 'TACK_PARTNER_CLIENT_ID, TACK_PARTNER_SECRET',
    unmet: ({ target }) => (target.partner ? undefined : "needs tenant A's partner key (TACK_PARTNER_CLIENT_ID, TACK_PARTNER_SECRET)"),
  },
  'other-tenant': {
    meaning: "tenant B's host",
    asks: 'TACK_OTHER_BASE_URL',
    unmet: ({ target }) => (target.otherBaseUrl ? undefined : "needs tenant B's host (TACK_OTHER_BASE_URL)"),
  },
  'other-partner': {
    meaning: "tenant B's partner key",
    asks: 'TACK_OTHER_BASE_URL, TACK_OTHER_PARTNER_CLIENT_ID, TACK_OTHER_PARTNER_SECRET',
    unmet: ({ target }) =>
      target.otherPartner && target.otherBaseUrl
        ? undefined
        : "needs tenant B's partner key (TACK_OTHER_BASE_URL, TACK_OTHER_PARTNER_CLIENT_ID, TACK_OTHER_PARTNER_SECRET)",
  },
  'api-token': {
    meaning: 'some personal API token to exchange: from the hook, the hookless token file, or the token page',
    asks:
      'a personal API token: hook capabilities users and api-tokens, or TACK_USER_EMAIL with TACK_API_TOKEN_FILE, ' +
      'or the token page (a browser, TACK_USER_EMAIL with TACK_USER_PASSWORD)',
    unmet: ({ target, hook, browser }) => {
      if (tokensFromHook(hook) || target.hookless || (browser.found && hasWebUser(target, hook))) return undefined;
      const aBrowser = browser.found ? 'a browser' : `a browser: ${browser.reason}`;
      return (
        'needs a personal API token: the test hook with the users and api-tokens capabilities (TACK_HOOK_URL, TACK_HOOK_TOKEN), ' +
        'or TACK_USER_EMAIL with TACK_API_TOKEN_FILE, ' +
        `or tokens generated through the token page (TACK_USER_EMAIL with TACK_USER_PASSWORD, and ${aBrowser})`
      );
    },
  },
  'own-token': {
    meaning: 'API tokens tack generates itself, so destructive steps are allowed: the hook (users and api-tokens), or the token page',
    asks: 'API tokens tack generates itself: hook capabilities users and api-tokens, or the token page (a browser, TACK_USER_EMAIL with TACK_USER_PASSWORD)',
    unmet: ({ target, hook, browser }) => {
      if (tokensFromHook(hook) || (browser.found && hasWebUser(target, hook))) return undefined;
      const page = !browser.found ? `a browser (${browser.reason})` : 'TACK_USER_EMAIL with TACK_USER_PASSWORD';
      const hookWay = 'the test hook with the users and api-tokens capabilities (TACK_HOOK_URL, TACK_HOOK_TOKEN)';
      return `needs API tokens tack owns: ${hookWay}, or tokens generated through the token page, which needs ${page}`;
    },
  },
  browser: {
    meaning: "a Chromium executable (TACK_BROWSER, Playwright's own, or /usr/bin/chromium)",
    asks: 'a Chromium (TACK_BROWSER, or /usr/bin/chromium)',
    unmet: ({ browser }) => (browser.found ? undefined : `needs a browser: ${browser.reason}`),
  },
  'user-password': {
    meaning: 'a user tack can sign in with at the web pages: its own (hook users and passwords), or TACK_USER_EMAIL with TACK_USER_PASSWORD',
    asks: 'a user tack can sign in with: hook capabilities users and passwords, or TACK_USER_EMAIL with TACK_USER_PASSWORD',
    unmet: ({ target, hook }) =>
      hasWebUser(target, hook)
        ? undefined
        : 'needs a user tack can sign in with at the web pages: the test hook with the users and passwords capabilities, ' +
          'or TACK_USER_EMAIL with TACK_USER_PASSWORD',
  },
  'wrong-password': {
    meaning:
      'a user tack may type one wrong password for at re-authentication: its own (hook users and passwords), ' +
      'or TACK_USER_EMAIL with TACK_USER_PASSWORD unless TACK_NO_WRONG_PASSWORD is set',
    asks: 'hook capabilities users and passwords, or TACK_USER_EMAIL with TACK_USER_PASSWORD (TACK_NO_WRONG_PASSWORD unset)',
    unmet: ({ target, hook }) => {
      if (hook?.has('users') === true && hook.has('passwords')) return undefined;
      if (target.userEmail === undefined || target.userPassword === undefined) {
        return 'needs a user tack can sign in with: the test hook with the users and passwords capabilities, or TACK_USER_EMAIL with TACK_USER_PASSWORD';
      }
      return target.noWrongPassword ? 'TACK_NO_WRONG_PASSWORD is set: no wrong password is typed for TACK_USER_EMAIL' : undefined;
    },
  },
  reader: {
    meaning: 'a user whose reads tack knows: one it creates and gives read access, or TACK_USER_EMAIL (who reads at least one business by contract)',
    asks: 'a user who reads a business: hook capabilities businesses and access, or TACK_USER_EMAIL',
    unmet: ({ target, hook }) => (canGrant(hook) || target.userEmail !== undefined ? undefined : NO_READER),
  },
  'reader-token': {
    meaning: 'a personal API token of such a user (TokenSource.reader)',
    asks:
      "a personal API token of a user who reads a business: hook capabilities users, api-tokens, businesses and access, or TACK_USER_EMAIL's token " +
      '(TACK_API_TOKEN_FILE, or the token page)',
    unmet: (env) =>
      hasReaderToken(env)
        ? undefined
        : 'needs a personal API token of a user who reads at least one business: the test hook with the users, api-tokens, businesses and access ' +
          'capabilities, or TACK_USER_EMAIL with TACK_API_TOKEN_FILE, or with TACK_USER_PASSWORD and a browser',
  },
  'reader-access': {
    meaning: 'an access token of a user whose reads tack knows: a reader-token, or one the partner key mints for such a user',
    asks:
      'an access token of a user who reads a business: a reader-token, or the partner key (TACK_PARTNER_CLIENT_ID, TACK_PARTNER_SECRET) ' +
      'with hook capabilities businesses and access or TACK_USER_EMAIL',
    unmet: (env) =>
      hasReaderToken(env) || (env.target.partner !== undefined && (canGrant(env.hook) || env.target.userEmail !== undefined))
        ? undefined
        : 'needs an access token of a user who reads at least one business: the test hook with the businesses and access capabilities, ' +
          'or TACK_USER_EMAIL, each with the partner key (TACK_PARTNER_CLIENT_ID, TACK_PARTNER_SECRET) or a personal API token of that user',
  },
  'known-reads': {
    meaning: "permissions tack knows to compare a token with: the hook's businesses and access, or a reader-token",
    asks: "permissions tack knows: hook capabilities businesses and access, or TACK_USER_EMAIL's own token (TACK_API_TOKEN_FILE, or the token page)",
    unmet: (env) =>
      canGrant(env.hook) || hasReaderToken(env)
        ? undefined
        : 'needs permissions tack knows: the test hook with the businesses and access capabilities, ' +
          "or TACK_USER_EMAIL with TACK_API_TOKEN_FILE or TACK_USER_PASSWORD (to compare with the user's own token)",
  },
} as const satisfies Record<string, NeedEntry>;

type NamedNeed = keyof typeof NEEDS;

/** A precondition of a test: a need of the table, or a capability the target's test hook must list. */
export type Need = NamedNeed | `hook:${Capability}`;

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

/** The capability a `hook:<capability>` need asks for; undefined for a named need. Throws on anything else. */
function capabilityOf(need: Need): Capability | undefined {
  if (need in NEEDS) return undefined;
  const capability = need.startsWith('hook:') ? need.slice('hook:'.length) : undefined;
  if (capability === undefined || !(ALL_CAPABILITIES as readonly string[]).includes(capability)) throw new Error(`tack bug: unknown need "${need}"`);
  return capability as Capability;
}

/**
 * Why a need is not met here, as data: the reason in words, and for a hook need the capability and
 * whether the hook is missing or does not offer it (so that the selection can say every missing
 * capability in one reason without reading the words back).
 */
export interface UnmetNeed {
  readonly need: Need;
  readonly reason: string;
  readonly hook?: { readonly capability: Capability; readonly missing: HookMissing };
}

/** No test hook is configured (`no-hook`), or the target's hook does not list the capability (`not-offered`). */
export type HookMissing = 'no-hook' | 'not-offered';

/** The reason for capabilities of the test hook that are missing the same way, in one sentence. */
export function hookReason(missing: HookMissing, capabilities: readonly Capability[]): string {
  const words = capabilities.length === 1 ? capabilities[0]! : `${capabilities.slice(0, -1).join(', ')} and ${capabilities.at(-1)!}`;
  const what = `${words} capabilit${capabilities.length === 1 ? 'y' : 'ies'}`;
  return missing === 'no-hook' ? `needs the test hook (TACK_HOOK_URL, TACK_HOOK_TOKEN) with the ${what}` : `the target's test hook does not offer the ${what}`;
}

/** Why a hook need is not met here; undefined when it is. */
function unmetHookNeed(need: Need, capability: Capability, { target, hook, hookProblem }: NeedEnv): UnmetNeed | undefined {
  if (hook?.has(capability)) return undefined;
  if (!target.hook) return { need, reason: hookReason('no-hook', [capability]), hook: { capability, missing: 'no-hook' } };
  if (!hook) return { need, reason: `needs the test hook, which is not usable: ${hookProblem ?? 'unknown problem'}` };
  return { need, reason: hookReason('not-offered', [capability]), hook: { capability, missing: 'not-offered' } };
}

/** The entry of a need: a named one from the table, a hook need from its capability. */
function entryOf(need: Need): NeedEntry {
  const capability = capabilityOf(need);
  if (capability === undefined) return NEEDS[need as NamedNeed];
  return {
    meaning: `the target's test hook lists the ${capability} capability`,
    asks: `hook capability ${capability} (TACK_HOOK_URL, TACK_HOOK_TOKEN)`,
    unmet: (env) => unmetHookNeed(need, capability, env)?.reason,
  };
}

/** What a need asks of the configuration, in the words of target-config.md. */
export function needText(need: Need): string {
  return entryOf(need).asks;
}

/** Why each of `needs` is not met here, as data (unmerged: the selection says the hook's missing capabilities in one reason). */
export function unmetReasons(
  needs: readonly Need[],
  target: TargetConfig,
  hook: HookClient | undefined,
  hookProblem: string | undefined,
  browser: BrowserLookup = findBrowser(target.browser),
): UnmetNeed[] {
  const env = { target, hook, hookProblem, browser };
  return needs.flatMap((need): UnmetNeed[] => {
    const capability = capabilityOf(need);
    const unmet = capability === undefined ? entryOf(need).unmet(env) : unmetHookNeed(need, capability, env);
    if (unmet === undefined) return [];
    return [typeof unmet === 'string' ? { need, reason: unmet } : unmet];
  });
}
