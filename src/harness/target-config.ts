/**
 * The resolved target: what tack talks to, as src/harness/config.ts resolves it from the TACK_*
 * variables. Secrets stay in `partner`, `otherPartner`, `hook.token` and `userPassword`, which no
 * output path prints (each is registered with the redactor at start).
 */

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
  /** TACK_NO_WRONG_PASSWORD: no deliberate wrong password is typed for TACK_USER_EMAIL at re-authentication. */
  readonly noWrongPassword: boolean;
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

export interface PartnerKey {
  readonly clientId: string;
  readonly secret: string;
}

/** The locators of token-page.md that TACK_UI_SELECTORS may override. */
export const UI_SELECTOR_KEYS = ['username', 'password', 'submit', 'generate', 'token', 'copy', 'countdown'] as const;
export type UiSelectorKey = (typeof UI_SELECTOR_KEYS)[number];
