import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { playwrightChromium } from '../../../src/harness/browser/playwright.js';

describe("Playwright's Chromium, loaded on first use (src/harness/browser/playwright.ts)", () => {
  it('is the Chromium of the playwright-core package, the same one every time', () => {
    expect(playwrightChromium().name()).toBe('chromium');
    expect(playwrightChromium().executablePath()).toBe(chromium.executablePath());
    expect(playwrightChromium()).toBe(playwrightChromium());
  });
});
