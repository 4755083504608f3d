/**
 * `tack doctor`, browser part: whether a browser is found and starts, whether the token page opens,
 * and whether signing in works with TACK_USER_EMAIL and TACK_USER_PASSWORD, naming the variable to
 * fix; the password is never printed, and no API token is generated (the server hands out none).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doctorCommand } from '../../src/cli/commands/doctor.js';
import { findBrowser } from '../../src/harness/browser/executable.js';
import { type ReferenceServer, startReferenceServer } from '../../src/reference/index.js';
import { captureIssuedTokens } from '../reporters/secrets.js';

const hasBrowser = findBrowser(process.env['TACK_BROWSER']).found;
let server: ReferenceServer;

beforeAll(async () => {
  server = await startReferenceServer();
});
afterAll(async () => {
  await server.close();
});

/** The reference server without its hook, signing in as the seeded user. */
function userEnv(password: string): Record<string, string> {
  const { TACK_HOOK_URL: _url, TACK_HOOK_TOKEN: _token, ...rest } = server.env;
  return { ...rest, TACK_USER_EMAIL: server.userEmail, TACK_USER_PASSWORD: password };
}

async function doctor(env: Record<string, string>): Promise<{ exit: number; out: string }> {
  let out = '';
  const exit = await doctorCommand({}, (s) => (out += s), env);
  return { exit, out };
}

describe('tack doctor: the browser, the token page, sign-in', () => {
  it('without a browser: a warning with the install command, and the token-page rules in the skip plan', async () => {
    const { out } = await doctor({ ...userEnv(server.userPassword), TACK_BROWSER: '/nonexistent/chromium' });
    expect(out).toContain('⚠ no browser: TACK_BROWSER=/nonexistent/chromium does not exist; install one (Debian, Ubuntu: `apt-get install -y chromium`');
    expect(out).toMatch(/\d+ rules: needs a browser: TACK_BROWSER=\/nonexistent\/chromium does not exist[^\n]*\n\s+TOKEN-PAGE-REAUTH/);
  });

  it.skipIf(!hasBrowser)('with the right password: the browser starts, the page asks for a sign-in, sign-in works, and no token is made', async () => {
    const capture = captureIssuedTokens();
    let result: Awaited<ReturnType<typeof doctor>>;
    try {
      result = await doctor(userEnv(server.userPassword));
    } finally {
      capture.stop();
    }
    expect(result.out).toMatch(/✔ .* starts \(\d+ ms\): /);
    expect(result.out).toMatch(/✔ the token page http:\/\/acme\.localhost:\d+\/account\/api-tokens opens, and asks for a sign-in at http:\/\/id\.localhost/);
    expect(result.out).toMatch(/✔ signed in as alice@acme\.example: back at http:\/\/acme\.localhost:\d+\/account\/api-tokens \(no token generated\)/);
    expect(result.out).not.toContain(server.userPassword);
    expect([...capture.tokens].filter((t) => t.startsWith('tpat_'))).toEqual([]);
    expect(result.exit).toBe(0);
  });

  it.skipIf(!hasBrowser)('with a wrong password: a problem naming TACK_USER_PASSWORD, the password not printed (exit 2)', async () => {
    const { exit, out } = await doctor(userEnv('not-the-password-0123456789'));
    expect(out).toMatch(/✘ sign-in did not work: .*"Invalid username or password\."; check TACK_USER_EMAIL and TACK_USER_PASSWORD/);
    expect(out).not.toContain('not-the-password-0123456789');
    expect(exit).toBe(2);
  });
});
