/**
 * Every error code tack raises is documented in docs/errors.md, with its exit code, and the table
 * lists no code that does not exist (undici-style: one table-driven test covers them all).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, type ErrorCode, EXIT, TackError } from '../../src/harness/errors.js';

const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');

/** Rows of the codes table: `| \`TACK_ERR_X\` | exit | meaning | fix |`. */
const rows = new Map<string, { exit: number; meaning: string; fix: string }>();
for (const line of doc.split('\n')) {
  const m = /^\|\s*`(TACK_ERR_[A-Z_]+)`\s*\|\s*(\d+)\s*\|([^|]*)\|([^|]*)\|\s*$/.exec(line);
  if (m) rows.set(m[1]!, { exit: Number(m[2]), meaning: m[3]!.trim(), fix: m[4]!.trim() });
}
const codes = Object.keys(ERROR_CODES) as ErrorCode[];
const exits = new Set<number>(Object.values(EXIT));

describe('docs/errors.md', () => {
  it('has one row per code', () => {
    expect(rows.size).toBeGreaterThan(0);
    expect([...rows.keys()].sort()).toEqual([...codes].sort());
  });

  it.each(codes)('%s: documented with its exit code, a meaning and a fix', (code) => {
    const row = rows.get(code);
    expect(row, `${code} has no row in docs/errors.md`).toBeDefined();
    expect(row!.exit).toBe(ERROR_CODES[code].exit);
    expect(row!.meaning.length).toBeGreaterThan(10);
    expect(row!.fix.length).toBeGreaterThan(10);
  });

  it('names every code mentioned anywhere in it', () => {
    const mentioned = new Set(doc.match(/TACK_ERR_[A-Z_]+/g) ?? []);
    for (const m of mentioned) expect(codes, `docs/errors.md mentions ${m}, which src/harness/errors.ts does not define`).toContain(m);
  });
});

describe('TackError', () => {
  it.each(codes)('%s: a default message and a known exit code', (code) => {
    const error = new TackError(code);
    expect(error.code).toBe(code);
    expect(error.exitCode).toBe(ERROR_CODES[code].exit);
    expect(exits.has(error.exitCode)).toBe(true);
    expect(error.message).toBe(ERROR_CODES[code].message);
    expect(error.message.length).toBeGreaterThan(0);
  });

  it('codes are stable identifiers: TACK_ERR_ and upper case', () => {
    for (const code of codes) expect(code).toMatch(/^TACK_ERR_[A-Z]+(_[A-Z]+)*$/);
  });
});
