/**
 * A check's unit test as a table (as the OpenID conformance suite's condition tests and
 * Schemathesis' test_checks.py): each row an input made by hand, whether the check holds on it,
 * and, where it matters, what the finding says it got. Rows build their finding when they run.
 */
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/checks/finding.js';
import type { HttpResponse } from '../../src/harness/http.js';

export interface Row {
  readonly name: string;
  readonly found: () => Finding;
  readonly ok: boolean;
  /** What the finding must say it got (a regular expression, or the whole text). */
  readonly actual?: string | RegExp;
}

export function table(title: string, rows: readonly Row[]): void {
  describe(title, () => {
    it.each(rows.map((row) => [row.name, row] as const))('%s', (_name, row) => {
      const found = row.found();
      expect(found.ok, `${found.expected} / ${found.actual}`).toBe(row.ok);
      if (typeof row.actual === 'string') expect(found.actual).toBe(row.actual);
      else if (row.actual) expect(found.actual).toMatch(row.actual);
    });
  });
}

/** An answer as the HTTP client hands it over: `json` is serialised into the body when given. */
export function answer(status: number, options: { json?: unknown; text?: string; headers?: Record<string, string> } = {}): HttpResponse {
  const text = options.text ?? (options.json === undefined ? '' : JSON.stringify(options.json));
  return { status, headers: options.headers ?? {}, text, json: options.json, ms: 1, seq: 1 };
}
