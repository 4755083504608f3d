/**
 * The token page's locators (token-page.md, "Default locators"), each overridable through the
 * TACK_UI_SELECTORS file by the same key with a Playwright selector string. Defaults use Playwright
 * semantics: accessible role and name, case-insensitive.
 */
import type { Locator, Page } from 'playwright-core';
import type { UiSelectorKey } from '../target-config.js';

export type Selectors = Readonly<Partial<Record<UiSelectorKey, string>>>;

const DEFAULTS: Record<Exclude<UiSelectorKey, 'token'>, (page: Page) => Locator> = {
  username: (page) => page.getByRole('textbox', { name: /user ?name|e-?mail/i }),
  password: (page) => page.locator('input[type=password]'),
  submit: (page) => page.getByRole('button', { name: /sign ?in|log ?in|continue|submit/i }),
  generate: (page) => page.getByRole('button', { name: /generate/i }),
  copy: (page) => page.getByRole('button', { name: /copy/i }),
  countdown: (page) => page.getByText(/^\d:\d\d$/),
};

/** A masked token as pages show one: a run of bullets, asterisks or dots. */
const MASK_RUN = /[•●∙·*]{4,}/;

export class Locators {
  constructor(
    private readonly page: Page,
    private readonly overrides: Selectors,
  ) {}

  /** The first element the key's locator finds. */
  of(key: Exclude<UiSelectorKey, 'token'>): Locator {
    const selector = this.overrides[key];
    return (selector === undefined ? DEFAULTS[key](this.page) : this.page.locator(selector)).first();
  }

  /**
   * The element holding the token: the override, else `data-testid="api-token"`, else the element
   * showing the known token (its full value, or text ending in its last 4 characters), else the
   * element whose text looks masked.
   */
  async token(known?: string): Promise<Locator> {
    const selector = this.overrides.token;
    if (selector !== undefined) return this.page.locator(selector).first();
    const byTestId = this.page.getByTestId('api-token');
    if ((await byTestId.count()) > 0 || known === undefined) return (await byTestId.count()) > 0 ? byTestId.first() : this.page.getByText(MASK_RUN).first();
    const candidates = [
      this.page.getByText(known, { exact: true }),
      this.page.getByText(new RegExp(`${escapeRegExp(known.slice(-4))}$`)),
      this.page.getByText(MASK_RUN),
    ];
    for (const candidate of candidates) if ((await candidate.count()) > 0) return candidate.first();
    return byTestId.first();
  }

  /** An interface message of spec §7, matched by its exact text. */
  message(text: string): Locator {
    return this.page.getByText(text, { exact: true }).first();
  }
}

export function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}
