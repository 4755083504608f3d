/**
 * The evidence of a failed browser check: a screenshot of the page at the failing step, with the
 * token element and every password field masked (Playwright `mask`). No image is kept when the
 * page's text (visible text, title, form field values) holds any secret the redactor knows, before
 * or after the capture: a masked box cannot be trusted to cover an unmasked copy elsewhere.
 */
import type { Page } from 'playwright-core';
import type { Redactor } from '../redactor.js';
import type { Locators } from './locators.js';
import { describeUrl, scrub } from './token-page.js';

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

export async function capturePage(page: Page, locators: Locators, redactor: Redactor, step: string): Promise<PageEvidence> {
  const where = redactor.redact(describeUrl(page.url()));
  const base = { step: redactor.redact(step), page: where };
  try {
    if (showsSecret(await pageText(page), redactor)) return { ...base, withheld: WITHHELD_SECRET };
    const png = await page.screenshot({
      mask: [await locators.token(), page.locator('input[type=password]')],
      maskColor: '#444444',
      animations: 'disabled',
      caret: 'hide',
      timeout: 5_000,
    });
    if (showsSecret(await pageText(page), redactor)) return { ...base, withheld: WITHHELD_SECRET };
    return { ...base, png: new Uint8Array(png) };
  } catch (error) {
    const why = redactor.redact(scrub(error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)));
    return { ...base, withheld: `no screenshot: the page could not be captured (${why})` };
  }
}

/** Everything of the page a reader of an image or a DOM dump could see as text. */
export function pageText(page: Page): Promise<string> {
  // A string, so that tack's own code needs no DOM types: it runs in the page.
  return page.evaluate<string>(`(() => {
    const fields = Array.from(document.querySelectorAll('input, textarea, select')).map((e) => e.value ?? '');
    return [document.title, document.body ? document.body.innerText : '', ...fields].join('\\n');
  })()`);
}

export function showsSecret(text: string, redactor: Redactor): boolean {
  return redactor.redact(text) !== text;
}
