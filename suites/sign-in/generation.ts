/**
 * Who may generate an API token (spec §1): only a user signed in directly, not a user of a
 * partner's embedded app, and only where the tenant's API-token feature is on. Generation is the
 * hook's `api-tokens` call (exactly what the Generate-token page hands out); the hook contract
 * answers a refusal with 403 feature_disabled / not_direct. The rule is "no token": any answer
 * without one passes, and the status is reported. Where a browser and a user to sign in with are
 * there, the token page is tried too (./page-path.ts): with the feature off, the run's web user;
 * for an embedded user, that user created with a password (hook `passwords`).
 */
import { randomBytes } from 'node:crypto';
import type { TestContext } from '../../src/runner/test-context.js';
import { describeResponse } from '../../src/checks/describe-response.js';
import type { HttpResponse } from '../../src/harness/http.js';
import type { TestCase } from '../../src/runner/test-case.js';
import type { RuleId } from '../../src/rules/catalog.js';
import { apiTokenIssued, noApiToken } from '../../src/checks/generation.js';
import { isExchanged } from '../../src/checks/oauth.js';
import { generateThroughPage, pagePathOpen, signedInPage, signInAs } from './page-path.js';

function expectNoToken(t: TestContext, rule: RuleId, title: string, res: HttpResponse, contractError: string): void {
  t.check(rule, title, noApiToken(res));
  const error = (res.json as { error?: unknown } | undefined)?.error;
  if (res.status !== 403 || error !== contractError)
    t.observe(rule, `${title}: answered ${describeResponse(res)}; the hook contract says 403 ${contractError}`);
}

export const featureGate: TestCase = {
  id: 'sign-in/feature-gate',
  title: "No API token is generated where the tenant's feature is off",
  rules: ['SIGNIN-FEATURE-GATE'],
  needs: ['hook:features', 'hook:users', 'hook:api-tokens'],
  async run(t) {
    const tenant = t.target.tenant;
    const chain = await t.tokens.own();
    const hook = t.hook;
    // Signed in while the feature is on, in a context of its own: the run's shared sign-in is made
    // later, by the token-page tests (a session made now may not outlive the clock moves in between).
    const web = pagePathOpen(t) ? await signedInPage(t) : undefined;
    const switchOn = t.undo(() => hook.setFeature(tenant, true));
    await hook.setFeature(tenant, false);
    try {
      const res = await t.hook.apiTokenResponse(tenant, chain.email);
      expectNoToken(t, 'SIGNIN-FEATURE-GATE', 'generate a token with the feature off', res, 'feature_disabled');
      const title = 'Generate token on the token page with the feature off';
      if (web?.page) t.check('SIGNIN-FEATURE-GATE', title, await generateThroughPage(web.page, web.user.email, web.user.password));
      else if (web) t.observe('SIGNIN-FEATURE-GATE', `${title}: not tried, the sign-in page refused ${web.user.email}`);
      // The spec says access is available only where the feature is on; whether tokens issued
      // before it was switched off still exchange, it does not say.
      const before = await chain.exchange();
      t.observe(
        'SIGNIN-FEATURE-GATE',
        `a token generated before the feature was switched off ${isExchanged(before) ? 'still exchanges' : `is refused (${describeResponse(before.res)})`}`,
      );
    } finally {
      await switchOn();
    }
    const again = await t.hook.apiTokenResponse(tenant, chain.email);
    t.check('SIGNIN-FEATURE-GATE', 'generate a token once the feature is on again', apiTokenIssued(again));
  },
};

export const directOnly: TestCase = {
  id: 'sign-in/direct-only',
  title: "A user of a partner's embedded app cannot generate an API token",
  rules: ['SIGNIN-DIRECT-ONLY'],
  needs: ['hook:users', 'hook:api-tokens'],
  async run(t) {
    const tenant = t.target.tenant;
    const email = t.names.email('embedded');
    // With a password where tack can sign in as users it creates: the token page is tried as that user too.
    const password = pagePathOpen(t, true) ? `tack-${randomBytes(18).toString('base64url')}` : undefined;
    if (password !== undefined) t.redactor.register('password', password);
    await t.hook.createUser(tenant, { email, ...t.names.person(), signIn: 'embedded', ...(password === undefined ? {} : { password }) });
    const res = await t.hook.apiTokenResponse(tenant, email);
    expectNoToken(t, 'SIGNIN-DIRECT-ONLY', 'generate a token for an embedded-app user', res, 'not_direct');
    if (password !== undefined) {
      const title = 'Generate token on the token page as an embedded-app user';
      const page = await t.web.context({ signedIn: false });
      if (await signInAs(page, email, password)) t.check('SIGNIN-DIRECT-ONLY', title, await generateThroughPage(page, email, password));
      else t.observe('SIGNIN-DIRECT-ONLY', `${title}: the sign-in page refused that user, so no token either`);
    }
    // The control: a directly signed-in user of the same tenant gets one.
    const direct = t.names.email('direct');
    await t.hook.createUser(tenant, { email: direct, ...t.names.person(), signIn: 'direct' });
    const ok = await t.hook.apiTokenResponse(tenant, direct);
    t.check('SIGNIN-DIRECT-ONLY', 'generate a token for a directly signed-in user', apiTokenIssued(ok));
  },
};
