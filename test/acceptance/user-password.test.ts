/**
 * TACK_USER_PASSWORD is a real person's password on a real account, and a Keycloak-style server
 * locks an account after repeated failures:
 *
 * - a wrong one costs exactly one failed sign-in per run (counted at the reference server), every
 *   later test that would type it is `error` with one line naming the variable, what needs no
 *   password is still checked, and the run exits 2 (configuration);
 * - a sign-in server that locks the account after the deliberate wrong password (a page without a
 *   form, as Keycloak's brute-force detection can answer) gets the password typed once more, not
 *   again: two failed sign-ins in all, exit 2 with TACK_ERR_SIGN_IN_REFUSED, the password not blamed;
 * - a re-authentication page that asks for the user name too and shows no user (fault
 *   token-page-reauth-shows-no-user) gets the user's address typed there, as a person would: it
 *   fails TOKEN-PAGE-REAUTH (exit 1), and the password, which was right, is not blamed;
 * - set in a hook run that signs in as users it creates, it is said to be unused.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/conformance-run.js';
import { NO_BROWSER, targetFor } from '../helpers/modes.js';
import { runAgainstReference } from '../helpers/reference-run.js';
import { hasChromium, OWN_TOKEN_RULES, TOKEN_PAGE_RULES } from './fault-matrix-token-page.js';
import { scaled } from '../helpers/time-limits.js';

const reports = mkdtempSync(join(tmpdir(), 'tack-password-'));
afterAll(() => rmSync(reports, { recursive: true, force: true }));

describe.skipIf(!hasChromium)('a wrong TACK_USER_PASSWORD', () => {
  it(
    'costs one failed sign-in: every later test that would type it is error naming the variable, exit 2',
    async () => {
      const { server, env } = await targetFor('hookless', [], {}, { TACK_USER_PASSWORD: 'not-the-password-of-this-user' });
      try {
        const chains = server.liveApiTokenChains(server.userEmail);
        let out = '';
        const only = [...TOKEN_PAGE_RULES, ...OWN_TOKEN_RULES, 'SIGNIN-NO-STORE'];
        const exit = await runCommand({ only, runs: 2, seed: 1, strict: false, reports, fault: [], quiet: false }, (s) => (out += s), env);
        expect(exit, out).toBe(2);
        expect(server.failedSignIns(server.userEmail)).toBe(1);
        // The token file's chain needs no password: still checked. No token is left alive.
        expect(out).toMatch(/✔ SIGNIN-NO-STORE \[SHOULD\]/);
        expect(server.liveApiTokenChains(server.userEmail)).toEqual(chains);
        const errors = out.split('\n').filter((line) => /^! [A-Z-]+ \[(MUST|SHOULD)\] error: /.test(line));
        const withPassword = TOKEN_PAGE_RULES.length - 1 + OWN_TOKEN_RULES.length; // the feature switch needs the hook: skipped
        expect(errors).toHaveLength(withPassword);
        for (const line of errors) expect(line).toContain('TACK_ERR_USER_PASSWORD: the sign-in page did not accept TACK_USER_PASSWORD');
        expect(errors.filter((line) => line.includes(' not run: '))).toHaveLength(withPassword - 1); // one attempt: the first test's
        expect(out).toContain('tack: TACK_ERR_USER_PASSWORD: the sign-in page did not accept TACK_USER_PASSWORD for ');
        expect(out).not.toContain('not-the-password-of-this-user');
      } finally {
        await server.close();
      }
    },
    scaled(60_000),
  );
});

describe.skipIf(!hasChromium)('TACK_USER_PASSWORD at a sign-in server that does not end the sign-in', () => {
  it(
    'a lock after the wrong password, a page without a form: typed once more, never again; exit 2 with TACK_ERR_SIGN_IN_REFUSED',
    async () => {
      // A page without a form is waited for as long as one request may take: 5 s, the least, keeps the two waits short.
      const { server, env } = await targetFor('hookless', [], { lockAfterFailedSignIns: 1 }, { TACK_REQUEST_TIMEOUT_MS: '5000' });
      try {
        const chains = server.liveApiTokenChains(server.userEmail);
        let out = '';
        const only = [...TOKEN_PAGE_RULES, ...OWN_TOKEN_RULES];
        const exit = await runCommand({ only, runs: 2, seed: 1, strict: false, reports, fault: [], quiet: false }, (s) => (out += s), env);
        expect(exit, out).toBe(2);
        expect(server.failedSignIns(server.userEmail)).toBe(2); // the deliberate wrong password, and one with TACK_USER_PASSWORD
        expect(out).toContain('tack: TACK_ERR_SIGN_IN_REFUSED: ');
        expect(out).not.toContain('TACK_ERR_USER_PASSWORD');
        expect(out).toContain('signing in as alice@acme.example with TACK_USER_PASSWORD did not end signed in');
        expect(out).toContain('Your account is temporarily locked');
        expect(out).not.toContain('check TACK_USER_PASSWORD');
        expect(server.liveApiTokenChains(server.userEmail)).toEqual(chains);
      } finally {
        await server.close();
      }
    },
    scaled(90_000),
  );

  it(
    'a re-authentication form asking for the user name too: the address filled in, TOKEN-PAGE-REAUTH failed (exit 1), the password not blamed',
    async () => {
      const { server, env } = await targetFor('hookless', ['token-page-reauth-shows-no-user']);
      try {
        let out = '';
        const only = ['TOKEN-PAGE-REAUTH'];
        const exit = await runCommand({ only, runs: 2, seed: 1, strict: false, reports, fault: [], quiet: false }, (s) => (out += s), env);
        expect(exit, out).toBe(1);
        expect(out).toMatch(/✘ TOKEN-PAGE-REAUTH \[MUST\].*the re-authentication page shows who is signed in/);
        expect(out).not.toContain('TACK_ERR_USER_PASSWORD');
        expect(server.failedSignIns(server.userEmail)).toBe(1); // the deliberate wrong password only
      } finally {
        await server.close();
      }
    },
    scaled(90_000),
  );
});

describe('TACK_USER_PASSWORD in a hook run that creates its own web users', () => {
  it('is said to be unused', async () => {
    const { server, env } = await targetFor('hook', [], {}, { TACK_USER_EMAIL: 'alice@acme.example', TACK_USER_PASSWORD: 'x', TACK_BROWSER: NO_BROWSER });
    try {
      const result = await runAgainstReference({ env: { ...env, TACK_USER_EMAIL: server.userEmail }, only: ['PARTNER-MINT'] });
      expect(result.notes).toEqual([expect.stringMatching(/^TACK_USER_PASSWORD is set but this run does not use it: .*tack doctor signs in with it/)]);
    } finally {
      await server.close();
    }
  });
});
