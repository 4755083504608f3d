/**
 * Checks on what a browser saw on the token page and the sign-in pages (spec §1, §3, §5, §7, §8;
 * token-page.md). Each takes what a step observed and says whether it is what the spec asks; none
 * knows a rule. Token values are never shown: only whether they are there, and their length.
 */
import { finding, type Finding } from './finding.js';
import type { Outcome } from '../harness/browser/token-page.js';
import { type Seen, whereShown } from '../harness/browser/visible-text.js';

/** What a step led to, in words. */
export function outcomeText(outcome: Outcome): string {
  switch (outcome.kind) {
    case 'password':
      return `a page asking for a password (${outcome.where})`;
    case 'token':
      return `a token on the token page (${outcome.where})`;
    case 'message':
      return `the message "${outcome.text}" (${outcome.where})`;
    case 'nothing':
      return `neither a password field, a token nor a message of spec §7 (${outcome.where})`;
  }
}

/** The page asks for a password (re-authentication) before showing any token. */
export function asksForPassword(outcome: Outcome): Finding {
  return finding(outcome.kind === 'password', 'a page asking for the password, no token yet', outcomeText(outcome));
}

/** No token came of the step (e.g. a wrong password). */
export function noTokenShown(outcome: Outcome): Finding {
  return finding(outcome.kind !== 'token', 'no token (the password asked again, or a refusal)', outcomeText(outcome));
}

/** The token is on the token page. */
export function tokenShown(outcome: Outcome): Finding {
  return finding(outcome.kind === 'token', 'the new token on the token page', outcomeText(outcome));
}

/** The page shows who is signed in: the e-mail address in its text, or as the value of its user-name box. */
export function showsUser(email: string, text: string, usernameValue: string | undefined): Finding {
  const wanted = email.toLowerCase();
  const inText = text.toLowerCase().includes(wanted);
  const inBox = usernameValue !== undefined && usernameValue.trim().toLowerCase() === wanted;
  const actual = inText ? 'shown in the text' : inBox ? 'shown in the user-name box' : 'not shown';
  return finding(inText || inBox, `the signed-in user (${email}) shown above the form`, actual);
}

/** The clipboard holds something after Copy. */
export function copiedSomething(copied: string | undefined): Finding {
  const ok = copied !== undefined && copied !== '';
  return finding(ok, 'text on the clipboard', ok ? `${copied!.length} characters` : 'nothing was copied');
}

/** The copied text is exactly the token the page handed out. */
export function sameToken(copied: string | undefined, token: string): Finding {
  const actual =
    copied === undefined || copied === ''
      ? 'nothing was copied'
      : copied === token
        ? 'exactly that token'
        : token.startsWith(copied)
          ? `the token cut short (${copied.length} of ${token.length} characters)`
          : copied.trim() === token
            ? 'the token with white space around it'
            : `another value (${copied.length} characters)`;
  return finding(copied === token, `exactly the token the page received (${token.length} characters)`, actual);
}

/** The full token value is nowhere a person sees it (./visible-text.ts: text, title, fields, generated content, canvases, images, shadow roots, frames). */
export function notInVisibleText(seen: Seen, token: string): Finding {
  const where = whereShown(seen, token);
  const expected = 'the full token nowhere a person sees it (masked): text, title, form fields, generated content, canvases, images, shadow roots, frames';
  return finding(where.length === 0, expected, where.length === 0 ? 'not shown' : `the full token is shown in ${where.join(', ')}`);
}

/** The element holding the token shows something (a masked form), so "masked" is about a token on screen. */
export function displayed(text: string | undefined): Finding {
  const ok = text !== undefined && text.trim() !== '';
  return finding(ok, 'the token element showing the token (masked)', ok ? `showing ${text!.trim().length} characters` : 'empty or missing');
}

/** A countdown reads exactly `expected` (e.g. 2:00). */
export function reads(actual: string | undefined, expected: string): Finding {
  return finding(actual?.trim() === expected, expected, actual === undefined ? 'no countdown (nothing matching m:ss)' : JSON.stringify(actual.trim()));
}

/** A later reading of the countdown is lower than the first. */
export function countsDown(first: string | undefined, later: string | undefined): Finding {
  const a = seconds(first);
  const b = seconds(later);
  // Stryker disable next-line ConditionalExpression,LogicalOperator: a comparison with undefined is false anyway.
  const read = a !== undefined && b !== undefined;
  const ok = read && b < a;
  return finding(ok, `less than ${first ?? 'the first reading'} one second later`, later === undefined ? 'no countdown' : JSON.stringify(later.trim()));
}

/** An interface message of spec §7 is on the page, word for word. */
export function messageShown(shown: boolean, expected: string, seen: readonly string[]): Finding {
  const actual = shown ? 'shown' : seen.length === 0 ? 'no message' : `shown instead: ${seen.map((s) => `"${s}"`).join(', ')}`;
  return finding(shown, `the message "${expected}"`, actual);
}

/** Later, the token element shows what it showed when the token appeared (its masked form), a countdown in it aside. */
export function sameDisplay(first: string, later: string): Finding {
  const a = withoutCountdown(first);
  const b = withoutCountdown(later);
  const ok = a !== '' && b === a;
  const actual =
    b === '' ? 'empty or missing' : ok ? `the same ${a.length} characters` : `${b.length} other character(s) instead of the ${a.length} shown at first`;
  return finding(ok, 'the token element still showing the token as it did when it appeared', actual);
}

/** Where a person still sees the token: its element, its masked form or its full value anywhere on the page. */
function stillSeen(elementVisible: boolean, seen: Seen, masked: string, token: string): string | undefined {
  if (elementVisible) return 'the token element is still shown';
  const wanted = masked.trim();
  // Stryker disable next-line ConditionalExpression,StringLiteral: whereShown finds an empty value nowhere too.
  const maskedAt = wanted === '' ? [] : whereShown(seen, wanted);
  if (maskedAt.length > 0) return `the masked token is still in ${maskedAt.join(', ')}`;
  const fullAt = whereShown(seen, token);
  return fullAt.length > 0 ? `the full token is in ${fullAt.join(', ')}` : undefined;
}

/** The token is gone from the page: its element not visible, and neither its masked form nor its value anywhere a person sees. */
export function gone(stillVisible: boolean, seen: Seen, masked: string, token: string): Finding {
  const still = stillSeen(stillVisible, seen, masked, token);
  return finding(still === undefined, 'no token on the page', still ?? 'gone');
}

/** After a reload, no token is shown. */
export function notShownAgain(visibleAfter: boolean, seen: Seen, masked: string, token: string): Finding {
  const again = stillSeen(visibleAfter, seen, masked, token);
  return finding(again === undefined, 'no token on the reloaded page', again === undefined ? 'not shown' : `shown again: ${again}`);
}

/** After a Copy that put the token on the clipboard, the page does not say that the copy failed. */
export function noCopyFailure(failureShown: boolean, message: string): Finding {
  return finding(!failureShown, `no "${message}" after a Copy that worked`, failureShown ? 'the copy-failure message is shown' : 'none');
}

/** Opening the page led elsewhere on the web origin, to a page without the Generate control. */
export function redirectedAway(finalUrl: string, tokenPageUrl: string, generateVisible: boolean): Finding {
  const here = new URL(finalUrl);
  const page = new URL(tokenPageUrl);
  const samePage = here.origin === page.origin && here.pathname.replace(/\/+$/, '') === page.pathname;
  const ok = here.origin === page.origin && !samePage && !generateVisible;
  const actual = samePage
    ? `the token page itself${generateVisible ? ', Generate token and all' : ''}`
    : here.origin !== page.origin
      ? `${here.origin}${here.pathname}, another site`
      : `${here.pathname}${generateVisible ? ', with a Generate control' : ''}`;
  return finding(ok, `another page of ${page.origin} (the account details), without Generate token`, actual);
}

/** No API token came of Generate token: none on the page, none in its token response (`outcome` undefined: no Generate token offered). */
export function noTokenThroughPage(outcome: Outcome | undefined, received: boolean, where: string): Finding {
  const ok = !received && outcome?.kind !== 'token';
  const actual = received ? `the page received an API token (${where})` : outcome === undefined ? `no Generate token offered (${where})` : outcomeText(outcome);
  return finding(ok, 'no API token through the token page', actual);
}

/** No control that revokes, deletes or disables a token. */
export function noRevokeControl(names: readonly string[]): Finding {
  return finding(names.length === 0, 'no control to revoke a token', names.length === 0 ? 'none' : names.map((n) => `"${n}"`).join(', '));
}

/** No list or table of tokens. */
export function noTokenList(lists: readonly string[]): Finding {
  return finding(lists.length === 0, 'no list or table of tokens', lists.length === 0 ? 'none' : lists.join('; '));
}

/** The same businesses, by id. */
export function sameBusinesses(listed: readonly string[], reference: readonly string[], whose: string): Finding {
  const a = new Set(listed);
  const b = new Set(reference);
  const extra = [...a].filter((id) => !b.has(id));
  const missing = [...b].filter((id) => !a.has(id));
  const ok = extra.length === 0 && missing.length === 0;
  const parts = [...(extra.length > 0 ? [`also lists ${extra.join(', ')}`] : []), ...(missing.length > 0 ? [`misses ${missing.join(', ')}`] : [])];
  return finding(ok, `exactly the ${b.size} business(es) ${whose} reads`, ok ? `the same ${a.size}` : parts.join('; '));
}

function withoutCountdown(text: string): string {
  return text
    .replace(/\b\d{1,2}:\d\d\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function seconds(text: string | undefined): number | undefined {
  // Stryker disable next-line StringLiteral: no text, or any other that is not m:ss, reads as no countdown.
  const m = /^(\d+):(\d\d)$/.exec(text?.trim() ?? '');
  return m ? Number(m[1]) * 60 + Number(m[2]) : undefined;
}
