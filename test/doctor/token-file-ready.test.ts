/** The doctor's `token file` section: skipped outside hookless mode; a readable file is ok, a missing one a problem; the file is never exchanged. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diagnoseTokenFile } from '../../src/doctor/token-file-ready.js';
import { sayings, targetOf } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'tack-doctor-token-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const hookless = (file: string) => targetOf({ TACK_USER_EMAIL: 'u@example.com', TACK_API_TOKEN_FILE: file });

describe('diagnoseTokenFile', () => {
  it.each([
    ['the hook is the source', { TACK_HOOK_URL: 'http://hook.localhost:1', TACK_HOOK_TOKEN: 'h' }, /API tokens come from the test hook/],
    ['nothing is configured', {}, /TACK_USER_EMAIL, TACK_API_TOKEN_FILE/],
  ])('is skipped when %s', (_what, env, why) => {
    const { say, lines } = sayings();
    diagnoseTokenFile(targetOf(env), say);
    expect(lines).toHaveLength(1);
    expect(lines[0]![0]).toBe('skipped');
    expect(lines[0]![1]).toMatch(why);
  });

  it('says a readable file with one token is ok, unlocked, and not exchanged', () => {
    const file = join(dir, 'ok.token');
    writeFileSync(file, 'tpat_abc\n', { mode: 0o600 });
    const { say, lines } = sayings();
    diagnoseTokenFile(hookless(file), say);
    expect(lines.filter(([s]) => s === 'problem')).toEqual([]);
    expect(lines.find(([, t]) => t.startsWith(file))?.[1]).toMatch(/user u@example.com.*readable, holds one token/);
    expect(lines.at(-1)).toEqual(['ok', expect.stringMatching(/^not exchanged by doctor/)]);
  });

  it('is a problem when the file is missing', () => {
    const { say, lines } = sayings();
    diagnoseTokenFile(hookless(join(dir, 'missing.token')), say);
    expect(lines[0]![0]).toBe('problem');
  });
});
