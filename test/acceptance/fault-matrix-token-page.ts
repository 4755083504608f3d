/**
 * The fault matrix of the browser's rules: runs with Chromium, over the rules whose tests use it.
 *
 * - hook mode: the token page's rules with each token-page fault: exactly its rule fails, every other
 *   token-page rule passes, as in conformance.test.ts's full run with the browser; and with each
 *   conformant variant of the page (token-page-server-side: the code redeemed on the server, so
 *   TOKEN-PAGE-NO-TOKEN is provoked by removing offline_access) every one passes, so `--require-all`
 *   holds there as on the reference's own page. The rest of each
 *   of those faults' runs is the browser-less matrix's (fault-matrix.ts), which runs every fault over
 *   every other rule. (A fault of another area whose collateral names a token-page rule, with its
 *   reason, leaves that rule free to differ; nothing would be proven by running it here.)
 * - hookless mode (TACK_USER_PASSWORD, no hook): the token page's rules and the rules judged on
 *   tokens tack generates through the page (revoke, client id, rotation), clean (proving token
 *   generation without the hook); then each fault that names one of those rules, over the rules it
 *   names among them; and the token-page faults that change what the page generator meets, over
 *   their own rule and the client id (whose test takes one page-generated token). The other
 *   token-page faults change only what the token-page tests look at, the same in both modes.
 *
 * A run in Chromium costs several times one without (each token made through the page is a pass
 * through three pages), so each fault's run is limited to the rules its fault can reach there.
 *
 * Without Chromium the matrix says so and is skipped.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type BrowserLookup, findBrowser } from '../../src/harness/browser/executable.js';
import { resolveTarget, validateEnv } from '../../src/harness/config.js';
import { planRules } from '../../src/runner/selection.js';
import { ALL_TESTS } from '../../suites/index.js';
import { FAULTS, type FaultInfo } from '../../src/reference/faults.js';
import { getRule, RULES, type RuleId } from '../../src/rules/catalog.js';
import type { Mode } from '../helpers/modes.js';
import type { RunResult } from '../../src/runner/index.js';
import { checkedRules } from '../helpers/reference-run.js';
import { browserLimitMs } from '../helpers/browser-time.js';
import { deviations, isPageVariant, limited, ONLY_FAULTS, runAndPlan, runInMode, statuses } from './fault-matrix.js';
import type { Status } from '../../src/runner/results.js';

/** A remote target's hosts: the derivations below read the configuration only. */
const REMOTE = { TACK_BASE_URL: 'https://acme.uat.example.com', TACK_IDENTITY_URL: 'https://id.uat.example.com/realms/payroll' };

/** Runs in Chromium at once. */
const CONCURRENT_RUNS = 2;

const browser = findBrowser(process.env['TACK_BROWSER']);
export const hasChromium = browser.found;

export const TOKEN_PAGE_RULES: readonly RuleId[] = RULES.filter((r) => r.area === 'token-page').map((r) => r.id as RuleId);
/**
 * Rules a hookless run judges on tokens it generated through the token page (and could not judge
 * before), derived from the tests' needs by the runner's own plan: the rules outside the token page
 * a hookless run with TACK_USER_PASSWORD checks with a browser and not without one.
 */
export const OWN_TOKEN_RULES: readonly RuleId[] = (() => {
  const env = { ...REMOTE, TACK_USER_EMAIL: 'alice@acme.example', TACK_API_TOKEN_FILE: '/nonexistent/token', TACK_USER_PASSWORD: 'pw' };
  const target = resolveTarget(validateEnv(env), false);
  const checked = (lookup: BrowserLookup) =>
    new Set(planRules(ALL_TESTS, [], target, undefined, undefined, lookup).flatMap((p) => (p.skipReasons.length === 0 ? [p.rule] : [])));
  const withPage = checked({ found: true, path: '/usr/bin/chromium', how: 'any' });
  const withoutPage = checked({ found: false, reason: 'none' });
  return [...withPage].filter((rule) => !withoutPage.has(rule) && getRule(rule)?.area !== 'token-page');
})();
/**
 * Token-page faults that change what tack meets when it generates its own tokens through the page:
 * no password asked, another user's token, an old token shown again when the page opens, a user name
 * asked for again. (The
 * generator reads the token from the page's token response and leaves the page at once, so a copy
 * or a countdown fault never reaches it.)
 */
const MEETS_THE_GENERATOR = new Set(['token-page-no-reauth', 'token-page-other-user', 'token-page-shown-on-reload', 'token-page-reauth-shows-no-user']);

const isPageFault = (f: FaultInfo) => f.rules.some((r) => getRule(r)?.area === 'token-page');
/**
 * Faults of a conformant variant of the page (the server-side page, whose run shows every page rule
 * passing): each is run over its own rules only, the rest of that page being the variant's.
 */
const ON_A_VARIANT = new Set(['token-page-offline-access-ignored']);
const namesOwnTokenRule = (f: FaultInfo) => f.rules.some((r) => OWN_TOKEN_RULES.includes(r));

/** The faults of the browser matrix in `mode`, each with the rules its run judges. */
export function browserFaults(mode: 'hook' | 'hookless'): { fault: FaultInfo; only: readonly RuleId[] }[] {
  const out: { fault: FaultInfo; only: readonly RuleId[] }[] = [];
  for (const fault of FAULTS) {
    if (mode === 'hook' && (isPageFault(fault) || isPageVariant(fault)))
      out.push({ fault, only: ON_A_VARIANT.has(fault.name) ? fault.rules : TOKEN_PAGE_RULES });
    if (mode === 'hookless') {
      if (isPageFault(fault) && MEETS_THE_GENERATOR.has(fault.name)) out.push({ fault, only: [...fault.rules, 'SIGNIN-CLIENT-ID'] });
      else if (namesOwnTokenRule(fault)) out.push({ fault, only: fault.rules.filter((r) => OWN_TOKEN_RULES.includes(r)) });
    }
  }
  return out;
}

if (!browser.found) console.warn(`test/acceptance: the token page's fault matrix is skipped: ${browser.reason}`);

export function pageFaultMatrix(mode: 'hook' | 'hookless', shard = 0, shards = 1): void {
  describe.skipIf(!hasChromium)(`fault matrix of the token page, ${mode} mode, in Chromium${shards > 1 ? ` (${shard + 1}/${shards})` : ''}`, () => {
    let clean: Map<RuleId, Status>;
    const only = mode === 'hook' ? TOKEN_PAGE_RULES : [...TOKEN_PAGE_RULES, ...OWN_TOKEN_RULES];

    beforeAll(async () => {
      if (mode === 'hook') {
        // Every token-page rule passes in hook mode: conformance.test.ts shows it in a full run (a run saved here).
        clean = new Map(only.map((rule) => [rule, 'passed']));
        return;
      }
      const { result, plan } = await runAndPlan(mode as Mode, [], { browser: true, only });
      // tack doctor foresees, with the browser too, exactly the rules the run checks.
      const foresight = checkedRules(plan, result);
      expect(foresight.foreseen).toEqual(foresight.checked);
      clean = statuses(result);
      const notPassed = result.rules.filter((r) => r.status !== 'passed').map((r) => `${r.id}: ${r.status}: ${r.reason}`);
      // Hookless, the feature switch needs the hook; everything else, token generation through the page included, is checked.
      // The one wrong password at re-authentication checks that half of TOKEN-PAGE-REAUTH without the hook too.
      expect(notPassed).toEqual([expect.stringMatching(/^TOKEN-PAGE-FEATURE-OFF: skipped: needs the test hook/)]);
    }, browserLimitMs());

    const mine = browserFaults(mode).filter(({ fault }, i) => i % shards === shard && (ONLY_FAULTS === undefined || ONLY_FAULTS.has(fault.name)));
    // Two runs at a time (each its own server and browser): a run in Chromium waits on pages as much
    // as it computes. Started once the clean statuses are known; each test awaits its own.
    const runs = new Map<string, Promise<RunResult>>();
    beforeAll(() => {
      const start = limited(CONCURRENT_RUNS);
      for (const { fault, only: rules } of mine) {
        const run = start(() => runInMode(mode as Mode, [fault.name], { browser: true, only: rules }));
        run.catch(() => undefined); // awaited (and reported) by the fault's own test
        runs.set(fault.name, run);
      }
    });
    it.each(mine.map((f) => [f.fault.name, f] as const))(
      '%s',
      async (name, { fault }) => {
        expect(deviations(fault, clean, await runs.get(name)!)).toEqual([]);
      },
      browserLimitMs(),
    );
  });
}
