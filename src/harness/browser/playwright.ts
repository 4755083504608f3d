/**
 * Playwright's Chromium, loaded on first use. playwright-core is a CommonJS bundle of several megabytes:
 * imported from ESM at start-up, Node lexes it for its named exports on every `tack` start, a browser
 * needed or not (about 0.4 s of CPU: a tenth of a short run). `require` on first use skips that.
 */
import { createRequire } from 'node:module';
import type { BrowserType } from 'playwright-core';

let loaded: BrowserType | undefined;

export function playwrightChromium(): BrowserType {
  loaded ??= (createRequire(import.meta.url)('playwright-core') as typeof import('playwright-core')).chromium;
  return loaded;
}
