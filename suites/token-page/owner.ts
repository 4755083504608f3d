/**
 * The token is the signed-in user's (spec §5): it exchanges at the sign-in server, and its access
 * token lists that user's businesses. Judged against that user's businesses as another source
 * shows them (a token of the same user from the hook, the token file, or the partner key, in that
 * order): the same businesses, every page read. With the hook's grant, the business granted to the
 * user must be among them. Without another source, "that user's" cannot be told from "some user's":
 * that part is not verified.
 */
import type { TestContext } from '../../src/harness/context.js';
import type { WebUser } from '../../src/harness/browser/web.js';
import type { TestCase } from '../../src/harness/types.js';
import { expectUserData } from '../api/listing.js';
import { type SearchPages, searchPages } from '../api/paging.js';
import { exchanged } from '../checks/oauth.js';
import { sameBusinesses } from '../checks/page.js';
import { generateShown, onTokenPage, PAGE_NEEDS, realToken } from './support.js';

const RULE = 'TOKEN-PAGE-OWNER';

export const owner: TestCase = {
  id: 'token-page/owner',
  title: "The generated token is the signed-in user's: it exchanges, and lists that user's businesses",
  rules: [RULE],
  needs: PAGE_NEEDS,
  async run(t) {
    const { page, user } = await onTokenPage(t);
    await generateShown(page, user);
    const { token } = await realToken(page);
    await page.page.goto('about:blank'); // the page's part is done: nothing keeps counting down
    const chain = t.tokens.adopt(token, user.email, user.created);
    const result = await chain.exchange();
    t.check(RULE, 'the generated token exchanges at the sign-in server', exchanged(result));
    const pages = await searchPages(t, t.target.baseUrl, result.accessToken);
    if (user.reads?.kind === 'business') expectUserData(t, RULE, "its access token lists the business granted to the signed-in user", pages, user.reads);
    const reference = await referenceListing(t, user);
    if (reference === undefined) {
      t.unverified(RULE, "its access token lists the signed-in user's businesses", "tack has no other source of that user's tokens to compare with (the hook's api-tokens, TACK_API_TOKEN_FILE of that user, or the partner key)");
      return;
    }
    if (!pages.complete || !reference.pages.complete) {
      t.unverified(RULE, "its access token lists the signed-in user's businesses", `not every page could be read: ${pages.incomplete ?? reference.pages.incomplete}`);
      return;
    }
    const ids = (p: SearchPages) => p.items.map((i) => i.id);
    t.check(RULE, `its access token lists the businesses ${user.email} reads (as ${reference.how} shows them)`, sameBusinesses(ids(pages), ids(reference.pages), user.email));
  },
};

/** The user's businesses through another way to get that user's access token. */
async function referenceListing(t: TestContext, user: WebUser): Promise<{ pages: SearchPages; how: string } | undefined> {
  let access: string | undefined;
  let how: string;
  if (t.tokens.fromHook) {
    access = (await (await t.tokens.own({ email: user.email })).exchange()).accessToken;
    how = "a token the test hook generated for that user";
  } else if (t.target.hookless?.userEmail.toLowerCase() === user.email.toLowerCase()) {
    access = (await (await t.tokens.chain()).exchange()).accessToken;
    how = "the token file's token";
  } else if (t.target.partner) {
    access = (await t.partner.mint(user.email)).access?.value;
    how = 'a token minted with the partner key';
  } else return undefined;
  if (access === undefined) throw new Error(`could not get an access token of ${user.email} from ${how} (precondition)`);
  return { pages: await searchPages(t, t.target.baseUrl, access), how };
}
