/**
 * The vocabulary shared by the runner, the suites and the scenarios.
 *
 * A *test* (a rule suite's property or a scenario) declares the rules it gives verdicts on and the
 * preconditions it needs; the runner skips it, with the reason, when a precondition is missing.
 * Inside, every verdict is a *check* recorded against one rule id (OpenID-conformance style: the
 * check knows what it expects; the test says which rule it serves).
 */
import type { RuleId } from '../rules/catalog.js';

export type Capability = 'clock' | 'users' | 'api-tokens' | 'disable-user' | 'businesses' | 'access' | 'features' | 'passwords';

/** `passwords` (token-page.md): user creation takes an optional "password", so tack's users can sign in to the web pages. */
export const ALL_CAPABILITIES: readonly Capability[] = ['clock', 'users', 'api-tokens', 'disable-user', 'businesses', 'access', 'features', 'passwords'];

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

/** The resolved target: what tack talks to. Secrets stay in `secrets`, which no output path prints. */
export interface TargetConfig {
  readonly baseUrl: string;
  readonly otherBaseUrl: string | undefined;
  readonly identityUrl: string;
  /** First label of each host: the tenant names the hook uses. */
  readonly tenant: string;
  readonly otherTenant: string | undefined;
  readonly clientId: string;
  readonly partnerHeaders: readonly [string, string];
  readonly partner: PartnerKey | undefined;
  readonly otherPartner: PartnerKey | undefined;
  readonly hook: { readonly url: string; readonly token: string } | undefined;
  /** Hookless mode: TACK_USER_EMAIL with TACK_API_TOKEN_FILE. */
  readonly hookless: { readonly userEmail: string; readonly tokenFile: string } | undefined;
  /** TACK_USER_EMAIL: a user of tenant A who signs in directly and reads at least one business (with or without a token file). */
  readonly userEmail: string | undefined;
  /** TACK_USER_PASSWORD: that user's password, for the web pages (a secret: registered with the redactor). */
  readonly userPassword: string | undefined;
  /** TACK_WEB_URL: origin of tenant A's web interface; the token page is `{webUrl}/account/api-tokens`. Default: baseUrl. */
  readonly webUrl: string;
  /** TACK_UI_SELECTORS: the locators of the token page that the selector file overrides (Playwright selectors, by key). */
  readonly uiSelectors: Readonly<Partial<Record<UiSelectorKey, string>>>;
  /** TACK_BROWSER: a Chromium executable; undefined: Playwright's own, then /usr/bin/chromium. */
  readonly browser: string | undefined;
  /** TACK_JOURNAL_DIR: where run journals are kept; undefined: `<os temp>/tack-journal-<uid>`. */
  readonly journalDir?: string | undefined;
  readonly fields: {
    readonly partnerAccessToken: string | undefined;
    readonly partnerRefreshToken: string | undefined;
    readonly resetUrl: string | undefined;
  };
  readonly insecureTls: boolean;
  /** TACK_CLOCK_TOLERANCE_S: around the 30- and 90-day limits. */
  readonly toleranceS: number;
  /** TACK_ACCESS_TOLERANCE_S: around the 300-second access-token lifetime. */
  readonly accessToleranceS: number;
  /** Query parameter names of business search paging (not in the spec). */
  readonly paging: { readonly pageIndexParam: string; readonly pageSizeParam: string };
  readonly requestTimeoutMs: number;
  readonly runDeadlineS: number;
  /** True when tack started its own reference server for this run. */
  readonly builtIn: boolean;
}

/** The locators of token-page.md that TACK_UI_SELECTORS may override. */
export const UI_SELECTOR_KEYS = ['username', 'password', 'submit', 'generate', 'token', 'copy', 'countdown'] as const;
export type UiSelectorKey = (typeof UI_SELECTOR_KEYS)[number];

export interface PartnerKey {
  readonly clientId: string;
  readonly secret: string;
}

export interface TestCase {
  /** Stable id, `area/name` for suites, `scenario/name` for scenarios. */
  readonly id: string;
  readonly title: string;
  readonly rules: readonly RuleId[];
  readonly needs: readonly Need[];
  /** Parts of its rules it checks only where their own needs are met. */
  readonly parts?: readonly TestPart[];
  run(t: import('./context.js').TestContext): Promise<void>;
}

export type Status = 'passed' | 'failed' | 'warning' | 'skipped' | 'error';

/** One verdict of one check on one rule. */
export interface CheckResult {
  readonly rule: RuleId;
  readonly test: string;
  readonly title: string;
  readonly ok: boolean;
  readonly expected: string;
  readonly actual: string;
  /** Transcript sequence numbers of the exchanges that were made while the check's test ran up to it. */
  readonly exchanges: readonly number[];
  /** A property's failing run: the sequence number of its first exchange (`exchanges` keeps only its last ones). */
  readonly from?: number | undefined;
  /** Set when the check is a property: how to replay it. */
  readonly replay?:
    | {
        readonly seed: number;
        readonly path: string | undefined;
        readonly counterexample: string;
        /** The rule the failing step broke, when it is not the property's own (a lifecycle step that breaks SIGNIN-IDLE-RESET). */
        readonly rule?: string;
      }
    | undefined;
  /** Set on a failed browser check: the page at the failing step. */
  readonly screenshot?: PageEvidence | undefined;
}

/**
 * What a failed browser check saw: a screenshot of the page at the failing step (token and password
 * fields masked), or why none was kept. The image stays in memory until the reporters write it into
 * the run's folder (`file`); an image is never kept when the page's text held a registered secret.
 */
export interface PageEvidence {
  /** The step of the flow (e.g. "after Generate token"). */
  readonly step: string;
  /** Where the page was: origin and path only (a query may hold a one-time code). */
  readonly page: string;
  /** PNG bytes, until the reporters write them (never in results.json). */
  readonly png?: Uint8Array | undefined;
  /** Why there is no image. */
  readonly withheld?: string | undefined;
  /** Set by the reporters: the image's path inside the run's folder. */
  readonly file?: string | undefined;
}

export interface RuleResult {
  readonly id: RuleId;
  readonly level: 'MUST' | 'SHOULD';
  readonly area: string;
  readonly section: string;
  readonly text: string;
  readonly status: Status;
  readonly reason: string;
  readonly durationMs: number;
  readonly checks: readonly CheckResult[];
  readonly observations: readonly string[];
  /** Parts of the rule tack could not observe (the rule is then at best `skipped`). */
  readonly unverified: readonly string[];
  readonly tests: readonly string[];
}
