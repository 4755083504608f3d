/**
 * Screenshots of failed browser checks (src/reporters/screenshots.ts): each image becomes a numbered
 * PNG file under the run's folder, and the results keep only its file name, never the image.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/runner/index.js';
import { SCREENSHOT_DIR, writeScreenshots } from '../../src/reporters/screenshots.js';

const dir = mkdtempSync(join(tmpdir(), 'tack-screenshots-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
const check = (screenshot?: object) => ({ rule: 'TOKEN-PAGE-MASKED', ok: false, title: 't', ...(screenshot ? { screenshot } : {}) });
const run = {
  rules: [
    { id: 'TOKEN-PAGE-MASKED', checks: [check({ step: 'shown', page: '/tokens', png: PNG }), check()] },
    { id: 'TOKEN-PAGE-COPY', checks: [check({ step: 'copied', page: '/tokens', withheld: 'the page held a secret' })] },
    { id: 'TOKEN-PAGE-LIST', checks: [check({ step: 'listed', page: '/tokens', png: PNG })] },
  ],
} as unknown as RunResult;

describe('writeScreenshots', () => {
  const written = writeScreenshots(dir, run);

  it('writes each image as a numbered PNG named after its rule', () => {
    expect(written.files).toEqual([join(dir, SCREENSHOT_DIR, '01-TOKEN-PAGE-MASKED.png'), join(dir, SCREENSHOT_DIR, '02-TOKEN-PAGE-LIST.png')]);
    expect(new Uint8Array(readFileSync(written.files[0]!))).toEqual(PNG);
  });

  it('keeps in the results the file name, step and page, never the image bytes', () => {
    const shots = written.rules.flatMap((r) => r.checks.map((c) => c.screenshot));
    expect(shots[0]).toEqual({ step: 'shown', page: '/tokens', file: 'screenshots/01-TOKEN-PAGE-MASKED.png' });
    expect(JSON.stringify(written.rules)).not.toContain('"png"');
  });

  it('a withheld screenshot keeps its reason and gets no file; a check without one is left as it was', () => {
    expect(written.rules[1]!.checks[0]!.screenshot).toEqual({ step: 'copied', page: '/tokens', withheld: 'the page held a secret' });
    expect(written.rules[0]!.checks[1]).toBe(run.rules[0]!.checks[1]);
  });

  it('hands report.html each image as base64 by its file name', () => {
    expect(written.images.get('screenshots/02-TOKEN-PAGE-LIST.png')).toBe(Buffer.from(PNG).toString('base64'));
  });

  it('writes no folder when no check has an image', () => {
    const empty = mkdtempSync(join(tmpdir(), 'tack-screenshots-none-'));
    try {
      expect(writeScreenshots(empty, { rules: [run.rules[1]!] } as unknown as RunResult).files).toEqual([]);
      expect(existsSync(join(empty, SCREENSHOT_DIR))).toBe(false);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
