/**
 * The configurations real users run, each pointing tack at a freshly started reference server
 * (optionally with faults) through TACK_* variables only, as a user's env file would:
 *
 * - hook: everything, the test hook included (the built-in server's own variables);
 * - hookless: both partner keys and hosts, TACK_USER_EMAIL, TACK_USER_PASSWORD (the seeded password,
 *   so tack generates tokens of its own through the token page) and TACK_API_TOKEN_FILE, no hook;
 * - partner-only: both partner keys and hosts and TACK_USER_EMAIL, no token file, no hook;
 * - max-tolerance: hook mode with TACK_CLOCK_TOLERANCE_S and TACK_ACCESS_TOLERANCE_S at their maximum;
 * - reduced-hook: the hook without the businesses and access capabilities (users, passwords, api-tokens,
 *   clock, disable-user and features only), as a target's hook may offer less: tack can create users
 *   and their tokens but give them nothing to read, so "a token works" and "the same businesses"
 *   have no evidence, and the rules resting on them must be skipped, never passed;
 * - password-only: both partner keys and hosts, TACK_USER_EMAIL and TACK_USER_PASSWORD, no token
 *   file, no hook: every API token tack uses is one it generates through the token page. Not in
 *   MODES (each of its runs needs Chromium): test/acceptance/password-only.test.ts runs it.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_ACCESS_TOLERANCE_S, MAX_CLOCK_TOLERANCE_S } from '../../config/schema.js';
import { type ReferenceOptions, startReferenceServer, type ReferenceServer } from '../../src/reference/index.js';
import { BROWSER_ENV } from './test-browser.js';

/**
 * Run journals of tack's own tests go to memory where the machine has it (/dev/shm): a run syncs
 * each token it generates to disk, which costs nothing there and much on a busy disk.
 */
const JOURNALS: Record<string, string> = existsSync('/dev/shm') ? { TACK_JOURNAL_DIR: `/dev/shm/tack-journal-${process.getuid?.() ?? 'user'}` } : {};

/** Where no browser is: TACK_BROWSER naming it makes a run one of a machine without Chromium. */
export const NO_BROWSER = '/nonexistent/tack-runs-without-a-browser';

export type Mode = 'hook' | 'hookless' | 'partner-only' | 'max-tolerance' | 'password-only' | 'reduced-hook';

export const MODES: readonly Mode[] = ['hook', 'hookless', 'partner-only', 'max-tolerance', 'reduced-hook'];

/** The hook of reduced-hook mode: every capability but businesses and access. */
export const REDUCED_HOOK = ['clock', 'users', 'api-tokens', 'disable-user', 'features', 'passwords'] as const;

export interface ModeTarget {
  readonly server: ReferenceServer;
  readonly env: Record<string, string>;
}

/** `options` start the server in another dialect; `extra` variables are added in every mode. */
export async function targetFor(
  mode: Mode,
  faults: readonly string[] = [],
  options: ReferenceOptions = {},
  extra: Record<string, string> = {},
): Promise<ModeTarget> {
  const reduced = mode === 'reduced-hook' ? { hookCapabilities: REDUCED_HOOK } : {};
  const server = await startReferenceServer({ ...options, ...reduced, faults });
  const tenantA = Object.keys(server.urls.tenants)[0]!;
  const { TACK_HOOK_URL: _url, TACK_HOOK_TOKEN: _token, ...withoutHook } = server.env;
  let env: Record<string, string>;
  switch (mode) {
    case 'hook':
    case 'reduced-hook':
      env = { ...server.env };
      break;
    case 'max-tolerance':
      env = { ...server.env, TACK_CLOCK_TOLERANCE_S: String(MAX_CLOCK_TOLERANCE_S), TACK_ACCESS_TOLERANCE_S: String(MAX_ACCESS_TOLERANCE_S) };
      break;
    case 'hookless': {
      const tokenFile = join(mkdtempSync(join(tmpdir(), 'tack-mode-')), 'api-token');
      writeFileSync(tokenFile, `${server.issueApiToken(tenantA, server.userEmail)}\n`, { mode: 0o600 });
      env = { ...withoutHook, TACK_USER_EMAIL: server.userEmail, TACK_USER_PASSWORD: server.userPassword, TACK_API_TOKEN_FILE: tokenFile };
      break;
    }
    case 'partner-only':
      env = { ...withoutHook, TACK_USER_EMAIL: server.userEmail };
      break;
    case 'password-only':
      env = { ...withoutHook, TACK_USER_EMAIL: server.userEmail, TACK_USER_PASSWORD: server.userPassword };
      break;
  }
  return { server, env: { ...env, ...JOURNALS, ...BROWSER_ENV, ...extra } };
}
