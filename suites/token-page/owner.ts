/**
 * Whose token it is (spec §5, TOKEN-PAGE-OWNER): it exchanges, and its access token lists that
 * user's businesses, judged against the businesses the same user reads through another source of
 * that user's tokens (the hook's api-tokens, the token file of that user, the partner key, in that
 * order): exactly the same, every page read. With the hook's grant, the business granted to the user
 * must be among them. Without another source, "that user's" cannot be told from "some user's": that
 * part is not verified; nor where the other source lists no business (two empty lists prove nothing:
 * a hook without businesses and access gives its users none).
 */
import type { TokenChain } from '../../src/harness/tokens.js';
import type { WebUser } from '../../src/harness/browser/web.js';
import type { TestContext } from '../../src/runner/test-context.js';
import { expectUserData } from '../../src/steps/listing.js';
import { searchPages } from '../../src/steps/paging.js';
import { accessTokenIssued } from '../../src/checks/oauth.js';
import { sameBusinesses } from '../../src/checks/page.js';
import type { SearchPages } from '../../src/checks/search.js';

/** Judges the owner of a token the page handed out; `copiedOnly`: the token is known from the clipboard alone (then COPY needs it to be live). */
export async function judgeOwner(t: TestContext, user: WebUser, chain: TokenChain, copiedOnly: boolean): Promise<void> {
  const result = await chain.exchange();
  const live = accessTokenIssued(result);
  if (copiedOnly) t.soft('TOKEN-PAGE-COPY', 'the copied value exchanges at the sign-in server (a whole, live token)', live);
  if (!t.soft('TOKEN-PAGE-OWNER', 'the generated token exchanges at the sign-in server', live)) return;
  const pages = await searchPages(t, t.target.baseUrl, result.accessToken);
  if (user.reads !== undefined) {
    const what = user.reads.kind === 'business' ? 'the business granted to the signed-in user' : 'a business (TACK_USER_EMAIL reads at least one)';
    expectUserData(t, 'TOKEN-PAGE-OWNER', `its access token lists ${what}`, pages, user.reads, { soft: true });
  }
  const title = `its access token lists the businesses ${user.email} reads`;
  const reference = await referenceListing(t, user);
  if (reference === undefined) {
    const sources = "the hook's api-tokens, TACK_API_TOKEN_FILE of that user, or the partner key";
    t.unverified('TOKEN-PAGE-OWNER', title, `tack has no other source of that user's tokens to compare with (${sources})`);
    return;
  }
  if (!pages.complete || !reference.pages.complete) {
    t.unverified('TOKEN-PAGE-OWNER', title, `not every page could be read: ${pages.incomplete ?? reference.pages.incomplete}`);
    return;
  }
  const ids = (p: SearchPages) => p.items.map((i) => i.id);
  if (reference.pages.items.length === 0) {
    // Two empty lists prove nothing: any user who reads nothing lists the same.
    const why = `${user.email} reads no business (as ${reference.how} lists them), so "the same businesses" cannot tell that user's token from another's`;
    t.unverified('TOKEN-PAGE-OWNER', title, why);
    return;
  }
  t.soft('TOKEN-PAGE-OWNER', `${title} (as ${reference.how} lists them)`, sameBusinesses(ids(pages), ids(reference.pages), user.email));
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
