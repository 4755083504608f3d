/**
 * The vocabulary shared by the runner, the suites and the scenarios.
 *
 * A *test* (a rule suite's property or a scenario) declares the rules it gives verdicts on and the
 * preconditions it needs; the runner skips it, with the reason, when a precondition is missing.
 * Inside, every verdict is a *check* recorded against one rule id (OpenID-conformance style: the
 * check knows what it expects; the test says which rule it serves).
 */
import type { RuleId } from '../rules/catalog.js';

export type Capability = 'clock' | 'users' | 'api-tokens' | 'disable-user' | 'businesses' | 'access' | 'features';

export const ALL_CAPABILITIES: readonly Capability[] = ['clock', 'users', 'api-tokens', 'disable-user', 'businesses', 'access', 'features'];

/**
 * Preconditions. Each is met by configuration variables or a hook capability:
 * - `partner`: TACK_PARTNER_CLIENT_ID / TACK_PARTNER_SECRET (tenant A's key)
 * - `other-tenant`: TACK_OTHER_BASE_URL
 * - `other-partner`: TACK_OTHER_PARTNER_CLIENT_ID / TACK_OTHER_PARTNER_SECRET (tenant B's key)
 * - `api-token`: some personal API token to exchange: from the hook, or the hookless token file
 * - `hook:<capability>`: the target's test hook lists that capability
 */
export type Need = 'partner' | 'other-tenant' | 'other-partner' | 'api-token' | `hook:${Capability}`;

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
  readonly hookless: { readonly userEmail: string; readonly tokenFile: string } | undefined;
  readonly fields: {
    readonly partnerAccessToken: string | undefined;
    readonly partnerRefreshToken: string | undefined;
    readonly resetUrl: string | undefined;
  };
  readonly insecureTls: boolean;
  readonly toleranceS: number;
  /** TACK_ACCESS_TOLERANCE_S: the tolerance on the 300-second access-token lifetime (0-15 s). */
  readonly accessToleranceS: number;
  readonly requestTimeoutMs: number;
  readonly runDeadlineS: number;
  /** True when tack started its own reference server for this run. */
  readonly builtIn: boolean;
}

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
  /** Set when the check is a property: how to replay it. */
  readonly replay?: { readonly seed: number; readonly path: string | undefined; readonly counterexample: string } | undefined;
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
  readonly tests: readonly string[];
}
