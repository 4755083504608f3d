/**
 * Password re-entry (spec §1, §5): Generate token leads to a page that asks for the password again
 * and shows who is signed in, before any token exists; with the password, the token appears. For a
 * user tack created (hook), a wrong password is tried first and must get no token; the user of
 * TACK_USER_EMAIL is never sent a wrong password (a real account may lock after failures).
 */
import { randomBytes } from 'node:crypto';
import type { TestCase } from '../../src/harness/types.js';
import { asksForPassword, noTokenShown, showsUser, tokenShown } from '../checks/page.js';
import { judge, onTokenPage, PAGE_NEEDS } from './support.js';

const RULE = 'TOKEN-PAGE-REAUTH';

export const reauth: TestCase = {
  id: 'token-page/reauth',
  title: 'A token is generated only after the password is typed again, on a page that shows who is signed in',
  rules: [RULE],
  needs: PAGE_NEEDS,
  async run(t) {
    const { page, user } = await onTokenPage(t);
    const asked = await page.pressGenerate();
    await judge(t, page, RULE, 'Generate token asks for the password again before any token', asksForPassword(asked));
    const username = page.of('username');
    const boxValue = (await username.isVisible().catch(() => false)) ? await username.inputValue().catch(() => undefined) : undefined;
    await judge(t, page, RULE, 'the re-authentication page shows who is signed in', showsUser(user.email, await page.text(), boxValue), 'soft');
    if (user.created) {
      const wrong = await page.submitPassword(`tack-wrong-${randomBytes(9).toString('base64url')}`);
      await judge(t, page, RULE, 'a wrong password gets no token', noTokenShown(wrong));
      if (wrong.kind !== 'password') {
        await page.open();
        await judge(t, page, RULE, 'Generate token again asks for the password', asksForPassword(await page.pressGenerate()));
      }
    }
    await judge(t, page, RULE, 'with the password typed again, the token appears', tokenShown(await page.submitPassword(user.password)));
  },
};
