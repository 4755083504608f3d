/**
 * The evidence of a failed browser check: a screenshot of the page at the failing step, with the
 * token element and every password field masked (Playwright `mask`). No image is kept when what a
 * person sees on the page (./visible-text.ts, the one definition the verdicts use: text, title,
 * field values, generated content, text drawn on canvases and in images) holds any secret the
 * redactor knows, before or after the capture: a masked box cannot be trusted to cover an unmasked
 * copy elsewhere. Nor when the page shows a canvas or an image tack cannot read: it might hold one.
 * Nor of a page that received an API token (its own token response carried one, or a secret tack
 * knows is anywhere in its markup, attributes, styles, field values or storage): a page can draw a
 * token in more ways than tack reads (CSS, fonts, images, reordered pieces), so tack cannot prove from
 * the page that no token is drawn. Pages before a token (sign-in, a gate, a message of spec §7) keep theirs.
 */
import type { Page } from 'playwright-core';
import type { Redactor } from '../redactor.js';
import type { Locators } from './locators.js';
import { describeUrl, scrub } from './token-page.js';
import { type Seen, seeOnPage, seenText } from './visible-text.js';

/**
 * What a failed browser check saw: a screenshot of the page at the failing step (token and password
 * fields masked), or why none was kept. The image stays in memory until the reporters write it into
 * the run's folder (`file`); an image is never kept when the page's text held a registered secret.
 */
export interface PageEvidence {
  /** The step of the flow (e.g. "after Generate token"). */
  readonly step: string;
  /** Where the page was: origin and path only (a query may hold a one-time code). */
  readonly page: string;
  /** PNG bytes, until the reporters write them (never in results.json). */
  readonly png?: Uint8Array | undefined;
  /** Why there is no image. */
  readonly withheld?: string | undefined;
  /** Set by the reporters: the image's path inside the run's folder. */
  readonly file?: string | undefined;
}

export const WITHHELD_SECRET = 'no screenshot kept: the page showed a secret tack knows (a token, a password or a code)';

export const WITHHELD_TOKEN_PAGE =
  'no screenshot kept: the page holds an API token, and tack cannot prove from the page that no token is drawn ' +
  '(a page can draw one in ways tack does not read)';

/**
 * Why no image is kept of what the page shows; undefined when one may be. `received`: the page's own
 * token response carried an API token.
 */
export function withholdReason(seen: Seen, redactor: Redactor, received = false): string | undefined {
  if (showsSecret(seenText(seen), redactor)) return WITHHELD_SECRET;
  if (received || showsSecret(seen.held, redactor)) return WITHHELD_TOKEN_PAGE;
  if (seen.unreadable.length > 0) return `no screenshot kept: the page showed ${seen.unreadable.join(', ')}, which tack cannot read (it might hold a secret)`;
  return undefined;
}

/** A screenshot of the page at a failed step, or why none is kept. `received`: the page received an API token (./tap.ts `issuedToken`). */
export async function capturePage(page: Page, locators: Locators, redactor: Redactor, step: string, received = false): Promise<PageEvidence> {
  const where = redactor.redact(describeUrl(page.url()));
  const base = { step: redactor.redact(step), page: where };
  try {
    const before = withholdReason(await seeOnPage(page), redactor, received);
    if (before !== undefined) return { ...base, withheld: before };
    const png = await page.screenshot({
      mask: [await locators.token(), page.locator('input[type=password]')],
      maskColor: '#444444',
      animations: 'disabled',
      caret: 'hide',
      timeout: 5_000,
    });
    const after = withholdReason(await seeOnPage(page), redactor, received);
    if (after !== undefined) return { ...base, withheld: after };
    return { ...base, png: new Uint8Array(png) };
  } catch (error) {
    const why = redactor.redact(scrub(error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)));
    return { ...base, withheld: `no screenshot: the page could not be captured (${why})` };
  }
}

export function showsSecret(text: string, redactor: Redactor): boolean {
  return redactor.redact(text) !== text;
}
