/**
 * The token handed out (spec §5, §7): Copy puts exactly that token on the clipboard, whole; and it is
 * the signed-in user's: it exchanges at the sign-in server, and its access token lists that user's
 * businesses.
 *
 * The token is known from the page's own token response (token-page.md: the page redeems its code in
 * the browser, and the response's refresh_token is the token); where the page gets it server-side,
 * the copied value is the token, and it must exchange.
 *
 * "That user's businesses" are judged against the businesses the same user reads through another
 * source of that user's tokens (the hook's api-tokens, the token file of that user, the partner key,
 * in that order): exactly the same, every page read. With the hook's grant, the business granted to
 * the user must be among them. Without another source, "that user's" cannot be told from "some
 * user's": that part is not verified.
 */
import type { WebUser } from '../../src/harness/browser/web.js';
import type { TestContext } from '../../src/harness/context.js';
import type { TestCase } from '../../src/harness/types.js';
import { expectUserData } from '../api/listing.js';
import { type SearchPages, searchPages } from '../api/paging.js';
import { accessTokenIssued } from '../checks/oauth.js';
import { copiedSomething, sameBusinesses, sameToken } from '../checks/page.js';
import { generateShown, judge, onTokenPage, PAGE_NEEDS } from './support.js';

export const handedOut: TestCase = {
  id: 'token-page/token',
  title: "Copy gives exactly the token, and the token is the signed-in user's",
  rules: ['TOKEN-PAGE-COPY', 'TOKEN-PAGE-OWNER'],
  needs: PAGE_NEEDS,
  async run(t) {
    const { page, user } = await onTokenPage(t);
    await generateShown(page, user);
    const issued = await page.tap.issuedToken();
    const copied = await page.copy();
    await judge(t, page, 'TOKEN-PAGE-COPY', 'Copy puts text on the clipboard', copiedSomething(copied), 'soft');
    if (issued !== undefined) {
      await judge(t, page, 'TOKEN-PAGE-COPY', 'the clipboard after Copy holds the token the page received', sameToken(copied, issued), 'soft');
    }
    else t.observe('TOKEN-PAGE-COPY', 'the page redeemed no code in the browser: the copied value is taken as the token, and must exchange');
    const token = issued ?? copied;
    if (token === undefined || token === '') throw new Error("tack could read the token neither from the page's token response nor through Copy");
    await page.page.goto('about:blank'); // the page's part is done: nothing keeps counting down

    const chain = t.tokens.adopt(token, user.email, user.created);
    const result = await chain.exchange();
    const live = accessTokenIssued(result);
    if (issued === undefined) t.soft('TOKEN-PAGE-COPY', 'the copied value exchanges at the sign-in server (a whole, live token)', live);
    t.check('TOKEN-PAGE-OWNER', 'the generated token exchanges at the sign-in server', live);
    const pages = await searchPages(t, t.target.baseUrl, result.accessToken);
    if (user.reads?.kind === 'business') {
      expectUserData(t, 'TOKEN-PAGE-OWNER', 'its access token lists the business granted to the signed-in user', pages, user.reads);
    }
    await judgeBusinesses(t, user, pages);
  },
};

async function judgeBusinesses(t: TestContext, user: WebUser, pages: SearchPages): Promise<void> {
  const rule = 'TOKEN-PAGE-OWNER';
  const title = `its access token lists the businesses ${user.email} reads`;
  const reference = await referenceListing(t, user);
  if (reference === undefined) {
    const sources = "the hook's api-tokens, TACK_API_TOKEN_FILE of that user, or the partner key";
    t.unverified(rule, title, `tack has no other source of that user's tokens to compare with (${sources})`);
    return;
  }
  if (!pages.complete || !reference.pages.complete) {
    t.unverified(rule, title, `not every page could be read: ${pages.incomplete ?? reference.pages.incomplete}`);
    return;
  }
  const ids = (p: SearchPages) => p.items.map((i) => i.id);
  t.check(rule, `${title} (as ${reference.how} lists them)`, sameBusinesses(ids(pages), ids(reference.pages), user.email));
}

/** The user's businesses through another way to get that user's access token. */
async function referenceListing(t: TestContext, user: WebUser): Promise<{ pages: SearchPages; how: string } | undefined> {
  let access: string | undefined;
  let how: string;
  if (t.tokens.fromHook) {
    access = (await (await t.tokens.own({ email: user.email })).exchange()).accessToken;
    how = 'a token the test hook generated for that user';
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
