/**
 * Feature off (spec §1, §7): where the tenant's API-token feature is off (hook `features`), opening
 * the token page sends the browser to the account details page: another page of the web interface,
 * without the Generate token control. The spec does not say where the account details page is: the
 * path reached is reported. The user signs in while the feature is on; it is switched on again after.
 */
import type { TestCase } from '../../src/runner/test-case.js';
import { visible } from '../../src/harness/browser/token-page.js';
import { describeUrl } from '../../src/harness/browser/token-page.js';
import { redirectedAway } from '../../src/checks/page.js';
import { judge, onTokenPage, PAGE_NEEDS } from '../../src/steps/page-flow.js';

export const featureOff: TestCase = {
  id: 'token-page/feature-off',
  title: "Where the tenant's API-token feature is off, the token page redirects to the account details page",
  rules: ['TOKEN-PAGE-FEATURE-OFF'],
  needs: [...PAGE_NEEDS, 'hook:features'],
  async run(t) {
    const { page } = await onTokenPage(t);
    const hook = t.hook;
    const switchOn = t.undo(() => hook.setFeature(t.target.tenant, true));
    await hook.setFeature(t.target.tenant, false);
    try {
      await page.open();
      await page.settle();
      const generate = await visible(page.of('generate'));
      const found = redirectedAway(page.page.url(), page.url, generate);
      if (found.ok) t.observe('TOKEN-PAGE-FEATURE-OFF', `with the feature off, ${page.url} led to ${describeUrl(page.page.url())}`);
      await judge(t, page, 'TOKEN-PAGE-FEATURE-OFF', 'open the token page with the feature off', found);
    } finally {
      await switchOn();
    }
  },
};
