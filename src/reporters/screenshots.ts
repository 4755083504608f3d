/**
 * The screenshots of failed browser checks: written as PNG files under the run's folder
 * (`screenshots/01-TOKEN-PAGE-MASKED.png`), and in the results only their file name, step and page.
 * report.html embeds the same images (data: URLs, which its Content-Security-Policy allows).
 *
 * The images were taken masked, and not at all when the page's text held a known secret
 * (src/harness/browser/screenshot.ts); nothing here looks into them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunResult } from '../runner/index.js';
import type { CheckResult, RuleResult } from '../runner/results.js';

export const SCREENSHOT_DIR = 'screenshots';

interface WrittenScreenshots {
  /** The run's rules with every image replaced by its file name. */
  readonly rules: readonly RuleResult[];
  /** Paths written. */
  readonly files: readonly string[];
  /** Base64 of each image, by its file name (for report.html). */
  readonly images: ReadonlyMap<string, string>;
}

export function writeScreenshots(dir: string, result: RunResult): WrittenScreenshots {
  const files: string[] = [];
  const images = new Map<string, string>();
  let n = 0;
  const rules = result.rules.map((rule) => ({
    ...rule,
    checks: rule.checks.map((check): CheckResult => {
      const shot = check.screenshot;
      if (shot === undefined) return check;
      const { png, ...rest } = shot;
      if (png === undefined) return { ...check, screenshot: rest };
      n++;
      const file = `${SCREENSHOT_DIR}/${String(n).padStart(2, '0')}-${rule.id}.png`;
      mkdirSync(join(dir, SCREENSHOT_DIR), { recursive: true });
      writeFileSync(join(dir, file), png);
      files.push(join(dir, file));
      images.set(file, Buffer.from(png).toString('base64'));
      return { ...check, screenshot: { ...rest, file } };
    }),
  }));
  return { rules, files, images };
}
