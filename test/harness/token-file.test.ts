/**
 * The token file, in-process: atomic 0600 writes, odd files refused clearly, symbolic links
 * followed, and temp files of killed processes removed. Its lock: ./lock.test.ts.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTackError } from '../../src/harness/errors.js';
import { inspectTokenFile, readTokenFile, removeStaleTemps, writeTokenFileAtomic } from '../../src/harness/token-file.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tack-tokenfile-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function fresh(content?: string, mode = 0o600): string {
  const file = join(dir, `token-${++n}`);
  if (content !== undefined) writeFileSync(file, content, { mode });
  return file;
}

describe('readTokenFile', () => {
  it.each([
    ['a token and a newline', 'tpat_abc.def\n', 'tpat_abc.def'],
    ['CRLF', 'tpat_abc\r\n', 'tpat_abc'],
    ['a byte-order mark', '\uFEFFtpat_abc\n', 'tpat_abc'],
    ['surrounding blank lines', '\n\n  tpat_abc  \n\n', 'tpat_abc'],
  ])('accepts %s', (_what, content, token) => {
    expect(readTokenFile(fresh(content))).toBe(token);
  });

  it.each([
    ['an empty file', '', 'it is empty'],
    ['only blanks', ' \n\t\n', 'it is empty'],
    ['two tokens', 'tpat_a\ntpat_b\n', 'not a single token'],
    ['a token with a space', 'tpat a\n', 'not a single token'],
  ])('refuses %s with TACK_ERR_TOKEN_FILE', (_what, content, words) => {
    const error = (() => {
      try {
        readTokenFile(fresh(content));
      } catch (e) {
        return e;
      }
    })();
    expect(isTackError(error, 'TACK_ERR_TOKEN_FILE')).toBe(true);
    expect((error as Error).message).toContain(words);
  });

  it('refuses a missing file, a folder and a huge file, naming the variable', () => {
    for (const path of [join(dir, 'missing'), dir, fresh('x'.repeat(70 * 1024))]) {
      expect(() => readTokenFile(path)).toThrow(/TACK_API_TOKEN_FILE/);
    }
  });

  it('never puts the token in an error message', () => {
    const file = fresh('tpat_secret_value other\n');
    expect(() => readTokenFile(file)).toThrow(expect.objectContaining({ message: expect.not.stringContaining('tpat_secret_value') }));
  });
});

describe('writeTokenFileAtomic', () => {
  it('writes one token, mode 0600 whatever the mode before, and leaves no temp file', () => {
    const file = fresh('old\n', 0o644);
    writeTokenFileAtomic(file, 'tpat_new');
    expect(readFileSync(file, 'utf8')).toBe('tpat_new\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('many rotations in one millisecond each get their own temp file', () => {
    const file = fresh('t0\n');
    for (let i = 1; i <= 50; i++) writeTokenFileAtomic(file, `t${i}`);
    expect(readTokenFile(file)).toBe('t50');
  });

  it('rewrites the file a symbolic link points to, and keeps the link', () => {
    const real = fresh('old\n');
    const link = join(dir, `link-${++n}`);
    symlinkSync(real, link);
    writeTokenFileAtomic(link, 'tpat_via_link');
    expect(readFileSync(real, 'utf8')).toBe('tpat_via_link\n');
    expect(readTokenFile(link)).toBe('tpat_via_link');
  });

  // Root writes anywhere, so this case cannot be made for root (CI runs as root): the next one can.
  it.skipIf(process.getuid?.() === 0)('a folder that is not writable: TACK_ERR_TOKEN_FILE, the previous token unchanged', () => {
    const folder = join(dir, `ro-${++n}`);
    mkdirSync(folder);
    const file = join(folder, 'token');
    writeFileSync(file, 'before\n', { mode: 0o600 });
    chmodSync(folder, 0o500);
    try {
      expect(() => writeTokenFileAtomic(file, 'after')).toThrow(/previous token is unchanged/);
      expect(readTokenFile(file)).toBe('before');
    } finally {
      chmodSync(folder, 0o700);
    }
  });

  it('a temp file that cannot be made, for root too: TACK_ERR_TOKEN_FILE, the previous token unchanged, no temp left', () => {
    // A name of 250 characters leaves no room for the temp file's longer one (ENAMETOOLONG, whoever writes).
    const folder = join(dir, `long-${++n}`);
    mkdirSync(folder);
    const file = join(folder, 't'.repeat(250));
    writeFileSync(file, 'before\n', { mode: 0o600 });
    expect(() => writeTokenFileAtomic(file, 'after')).toThrow(
      expect.objectContaining({ code: 'TACK_ERR_TOKEN_FILE', message: expect.stringMatching(/ENAMETOOLONG/) }),
    );
    expect(readTokenFile(file)).toBe('before');
    expect(readdirSync(folder)).toEqual(['t'.repeat(250)]);
  });

  it('removeStaleTemps removes what killed writers left, and nothing else', () => {
    const folder = join(dir, `temps-${++n}`);
    mkdirSync(folder);
    const file = join(folder, 'token');
    writeFileSync(file, 'tpat\n');
    writeFileSync(join(folder, '.token.12345.abc.0.tmp'), 'half a token');
    writeFileSync(join(folder, 'unrelated.tmp'), 'keep');
    expect(removeStaleTemps(file)).toBe(1);
    expect(readdirSync(folder).sort()).toEqual(['token', 'unrelated.tmp']);
  });

  it('inspectTokenFile reports without rotating or printing the token', () => {
    const file = fresh('tpat_inspected\n', 0o640);
    const report = inspectTokenFile(file);
    expect(report.ok).toBe(true);
    expect(report.warnings.join(' ')).toContain('mode 0640');
    expect(JSON.stringify(report)).not.toContain('tpat_inspected');
    expect(readFileSync(file, 'utf8')).toBe('tpat_inspected\n');
  });
});
