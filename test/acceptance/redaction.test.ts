/**
 * No secret reaches any output. tack runs against the reference server, started here with faults
 * so the reports carry failure details (exchanges, curl commands, counterexamples), once in-process
 * through `runCommand` and once as a child process (`node bin/tack.mjs run --env-file F`). Every
 * body the server sends is recorded, so every token it handed out is known: partner access and
 * refresh tokens, API tokens and their rotations, sign-in access tokens, reset links. Then every
 * file written under the run's folder, and everything printed on stdout and stderr, is searched
 * for the configured secrets (partner secrets, hook token) and every one of those tokens. The
 * browser paths too: failed token-page checks with screenshots (none kept where the page shows the
 * whole token), tokens tack generated through the page, the password typed there, the one-time codes
 * of the sign-in redirects, in hook mode and hookless with TACK_USER_PASSWORD.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBrowser } from '../../src/harness/browser/executable.js';
import { browserLimitMs } from '../helpers/browser-time.js';
import { runInProcess, startTarget, type Target } from '../reporters/helpers.js';
import { captureIssuedTokens, filesUnder, findSecrets, type Capture } from '../reporters/secrets.js';

const FAULTS = ['partner-secret-prefix-match', 'revoke-no-op', 'partner-refresh-without-headers', 'access-token-lives-an-hour'];
const RULES = [
  'PARTNER-SECRET-EXACT',
  'PARTNER-MINT',
  'PARTNER-REFRESH-NEEDS-KEY',
  'PARTNER-RESET-PASSWORD',
  'SIGNIN-EXCHANGE',
  'SIGNIN-ROTATION',
  'SIGNIN-REVOKE',
  'ACCESS-TOKEN-LIFETIME',
];
const MUST_FAIL = ['PARTNER-SECRET-EXACT', 'PARTNER-REFRESH-NEEDS-KEY', 'SIGNIN-REVOKE', 'ACCESS-TOKEN-LIFETIME'];

describe('redaction: nothing tack writes or prints carries a secret', () => {
  let target: Target;
  let capture: Capture;
  let configured: Record<string, string>;

  beforeAll(async () => {
    capture = captureIssuedTokens();
    target = await startTarget(FAULTS);
    configured = {
      TACK_PARTNER_SECRET: target.env.TACK_PARTNER_SECRET!,
      TACK_OTHER_PARTNER_SECRET: target.env.TACK_OTHER_PARTNER_SECRET!,
      TACK_HOOK_TOKEN: target.env.TACK_HOOK_TOKEN!,
    };
  });

  afterAll(async () => {
    capture?.stop();
    await target?.server.close();
  });

  it('in-process: results, transcript, JUnit, Markdown, HTML and the console hold no secret', async () => {
    let stderr = '';
    const originalErr = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      stderr += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      return (originalErr as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stderr.write;
    let run: Awaited<ReturnType<typeof runInProcess>>;
    try {
      run = await runInProcess(target.env, { only: RULES, seed: 3 });
    } finally {
      process.stderr.write = originalErr;
    }

    // The faults showed: failures with their evidence are in the reports.
    expect(run.code).toBe(1);
    const files = filesUnder(run.runDir);
    const names = [...files.keys()].map((p) => p.slice(run.runDir.length + 1)).sort();
    expect(names.filter((n) => !n.startsWith('reproduce/'))).toEqual(['junit.xml', 'report.html', 'results.json', 'summary.md', 'transcript.jsonl']);
    // A reproduce script per failed rule, searched for secrets with the rest.
    for (const id of MUST_FAIL) expect(names).toContain(`reproduce/${id}.sh`);
    const results = JSON.parse(files.get(join(run.runDir, 'results.json'))!) as { rules: { id: string; status: string; reproduce?: { curl: string } }[] };
    for (const id of MUST_FAIL) {
      const rule = results.rules.find((r) => r.id === id);
      expect(rule?.status, id).toBe('failed');
      expect(rule?.reproduce?.curl, id).toContain('curl ');
    }
    // The tokens were really there to leak: the server handed out many, and the transcript shows each kind as a placeholder.
    expect(capture.tokens.size).toBeGreaterThan(10);
    const transcript = files.get(join(run.runDir, 'transcript.jsonl'))!;
    for (const kind of ['partner-secret', 'partner-secret-variant', 'hook-token', 'api-token', 'access-token', 'refresh-token'])
      expect(transcript, kind).toContain(`<${kind}#`);

    const texts = new Map(files);
    texts.set('stdout', run.out);
    texts.set('stderr', stderr);
    expect(findSecrets(texts, configured, capture.tokens)).toEqual([]);
  });

  it('as a child process with --env-file: files, stdout and stderr hold no secret', async () => {
    const reports = mkdtempSync(join(tmpdir(), 'tack-redaction-child-'));
    const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('TACK_')));
    const child = await promisify(execFile)(
      process.execPath,
      ['bin/tack.mjs', 'run', '--env-file', target.envFile, '--only', RULES.join(','), '--seed', '5', '--reports-dir', reports],
      {
        env,
        cwd: process.cwd(),
      },
    ).catch((error: { code?: number; stdout: string; stderr: string }) => ({ stdout: error.stdout, stderr: error.stderr, code: error.code }));
    expect((child as { code?: number }).code).toBe(1);
    const runs = readdirSync(reports);
    expect(runs).toHaveLength(1);
    const texts = filesUnder(reports);
    expect([...texts.keys()].filter((p) => !p.includes('/reproduce/')).length).toBe(5);
    texts.set('stdout', child.stdout);
    texts.set('stderr', child.stderr);
    expect(child.stdout).toContain('✘ SIGNIN-REVOKE');
    expect(findSecrets(texts, configured, capture.tokens)).toEqual([]);
  });

  it('the search itself finds a secret in each form it could be written', () => {
    const token = capture.tokens.values().next().value!;
    for (const text of [`x ${token} y`, encodeURIComponent(`a=${token}`), JSON.stringify({ t: token }), configured.TACK_PARTNER_SECRET!.slice(3, 30)]) {
      expect(findSecrets(new Map([['planted', text]]), configured, [token]).length, text.slice(0, 20)).toBeGreaterThan(0);
    }
  });

  it.skipIf(!existsSync('src/load/run.ts'))('tack load: result files and output hold no secret', async () => {
    const { loadCommand } = await import('../../src/cli/commands/load.js');
    const dir = mkdtempSync(join(tmpdir(), 'tack-redaction-load-'));
    let out = '';
    await loadCommand(
      'exchange',
      [],
      {
        connections: 2,
        duration: '1s',
        warmup: '0s',
        threshold: [],
        tolerancePct: '20%',
        out: join(dir, 'load.json'),
        reports: dir,
        allowRemote: false,
        fault: [],
        failOnErrors: false,
        quiet: true,
      },
      { write: (s) => (out += s), progress: (s) => (out += s) },
      target.env,
    );
    const texts = filesUnder(dir);
    expect(texts.size).toBeGreaterThan(0);
    texts.set('output', out);
    expect(findSecrets(texts, configured, capture.tokens)).toEqual([]);
  });
});

describe('redaction, browser paths: the token page, its screenshots, and tokens generated through it', () => {
  const browserFound = findBrowser(process.env['TACK_BROWSER']).found;
  // Page faults whose failures carry screenshots (and one whose page shows the whole token), and revoke-no-op for a page-generated token's failure.
  const PAGE_FAULTS = ['token-page-unmasked', 'token-page-countdown-from-1-00', 'token-page-cancel-wrong-text', 'token-page-copy-truncated', 'revoke-no-op'];
  // Hook mode: the page showing the whole token, and a screenshot of a masked one; hookless: the
  // password typed, page-generated tokens revoked, a copy that fails, a message that differs.
  const HOOK_RULES = ['TOKEN-PAGE-MASKED', 'TOKEN-PAGE-COUNTDOWN', 'TOKEN-PAGE-CANCELLED'];
  const HOOKLESS_RULES = ['TOKEN-PAGE-COPY', 'TOKEN-PAGE-CANCELLED', 'SIGNIN-REVOKE'];

  it.skipIf(!browserFound)(
    'hook and hookless (TACK_USER_PASSWORD): reports, screenshots and the console hold no password, token or code',
    async () => {
      const capture = captureIssuedTokens();
      const target = await startTarget(PAGE_FAULTS);
      try {
        const { TACK_HOOK_URL: _u, TACK_HOOK_TOKEN: _t, ...withoutHook } = target.env;
        const tokenFile = join(target.dir, 'api-token');
        writeFileSync(tokenFile, `${target.server.issueApiToken('acme', target.server.userEmail)}\n`, { mode: 0o600 });
        const user = { TACK_USER_EMAIL: target.server.userEmail, TACK_USER_PASSWORD: target.server.userPassword };
        const hookless = { ...withoutHook, ...user, TACK_API_TOKEN_FILE: tokenFile };
        const configured = {
          TACK_PARTNER_SECRET: target.env.TACK_PARTNER_SECRET!,
          TACK_OTHER_PARTNER_SECRET: target.env.TACK_OTHER_PARTNER_SECRET!,
          TACK_HOOK_TOKEN: target.env.TACK_HOOK_TOKEN!,
          TACK_USER_PASSWORD: target.server.userPassword,
        };
        for (const [env, only] of [
          [target.env, HOOK_RULES],
          [hookless, HOOKLESS_RULES],
        ] as const) {
          const run = await runInProcess(env, { only: [...only], seed: 7 });
          expect(run.code).toBe(1);
          const results = JSON.parse(readFileSync(join(run.runDir, 'results.json'), 'utf8')) as ResultsShape;
          expect(results.rules.map((r) => `${r.id}: ${r.status}`).sort()).toEqual(only.map((rule) => `${rule}: failed`).sort());
          const shots = results.rules.flatMap((r) => r.checks.filter((c) => c.screenshot).map((c) => ({ rule: r.id, ...c.screenshot! })));
          // The page that shows the whole token is never captured; the others are, masked.
          const masked = shots.filter((s) => s.rule === 'TOKEN-PAGE-MASKED').map((s) => s.file ?? s.withheld);
          if (only.includes('TOKEN-PAGE-MASKED')) expect(masked).toEqual([expect.stringContaining('no screenshot kept: the page showed a secret')]);
          const written = shots.filter((s) => s.file !== undefined).map((s) => s.file!);
          expect(written.length).toBeGreaterThan(0);
          for (const file of written) expect(readFileSync(join(run.runDir, file)).subarray(1, 4).toString()).toBe('PNG');
          expect(readFileSync(join(run.runDir, 'report.html'), 'utf8')).toContain('data:image/png;base64,');
          const texts = filesUnder(run.runDir);
          texts.set('stdout', run.out);
          expect(findSecrets(texts, configured, capture.tokens)).toEqual([]);
        }
        // What there was to leak: API tokens the page handed out, the passwords typed, one-time codes.
        expect([...capture.tokens].filter((t) => t.startsWith('tpat_')).length).toBeGreaterThan(5);
        expect([...capture.tokens].some((t) => t.startsWith('ac1.'))).toBe(true);
        expect(capture.tokens.has(target.server.userPassword)).toBe(true);
      } finally {
        capture.stop();
        await target.server.close();
      }
    },
    browserLimitMs(2),
  );
});

interface ResultsShape {
  rules: { id: string; status: string; checks: { screenshot?: { file?: string; withheld?: string } }[] }[];
}
