/**
 * No secret reaches any output. tack runs against the reference server, started here with faults
 * so the reports carry failure details (exchanges, curl commands, counterexamples), once in-process
 * through `runCommand` and once as a child process (`node bin/tack.mjs run --env-file F`). Every
 * body the server sends is recorded, so every token it handed out is known: partner access and
 * refresh tokens, API tokens and their rotations, sign-in access tokens, reset links. Then every
 * file written under the run's folder, and everything printed on stdout and stderr, is searched
 * for the configured secrets (partner secrets, hook token) and every one of those tokens.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess, startTarget, type Target } from '../reports/helpers.js';
import { captureIssuedTokens, filesUnder, findSecrets, type Capture } from '../reports/secrets.js';

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
    let run;
    try {
      run = await runInProcess(target.env, { only: RULES, seed: 3 });
    } finally {
      process.stderr.write = originalErr;
    }

    // The faults showed: failures with their evidence are in the reports.
    expect(run.code).toBe(1);
    const files = filesUnder(run.runDir);
    expect([...files.keys()].map((p) => p.slice(run.runDir.length + 1)).sort()).toEqual(['junit.xml', 'report.html', 'results.json', 'summary.md', 'transcript.jsonl']);
    const results = JSON.parse(files.get(join(run.runDir, 'results.json'))!) as { rules: { id: string; status: string; reproduce?: { curl: string } }[] };
    for (const id of MUST_FAIL) {
      const rule = results.rules.find((r) => r.id === id);
      expect(rule?.status, id).toBe('failed');
      expect(rule?.reproduce?.curl, id).toContain('curl ');
    }
    // The tokens were really there to leak: the server handed out many, and the transcript shows each kind as a placeholder.
    expect(capture.tokens.size).toBeGreaterThan(10);
    const transcript = files.get(join(run.runDir, 'transcript.jsonl'))!;
    for (const kind of ['partner-secret', 'partner-secret-variant', 'hook-token', 'api-token', 'access-token', 'refresh-token']) expect(transcript, kind).toContain(`<${kind}#`);

    const texts = new Map(files);
    texts.set('stdout', run.out);
    texts.set('stderr', stderr);
    expect(findSecrets(texts, configured, capture.tokens)).toEqual([]);
  });

  it('as a child process with --env-file: files, stdout and stderr hold no secret', async () => {
    const reports = mkdtempSync(join(tmpdir(), 'tack-redaction-child-'));
    const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('TACK_')));
    const child = await promisify(execFile)(process.execPath, ['bin/tack.mjs', 'run', '--env-file', target.envFile, '--only', RULES.join(','), '--seed', '5', '--reports', reports], {
      env,
      cwd: process.cwd(),
    }).catch((error: { code?: number; stdout: string; stderr: string }) => ({ stdout: error.stdout, stderr: error.stderr, code: error.code }));
    expect((child as { code?: number }).code).toBe(1);
    const runs = readdirSync(reports);
    expect(runs).toHaveLength(1);
    const texts = filesUnder(reports);
    expect(texts.size).toBe(5);
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
      { connections: 2, duration: '1s', warmup: '0s', threshold: [], tolerance: '20%', out: join(dir, 'load.json'), reports: dir, allowRemote: false, fault: [], failOnErrors: false, quiet: true },
      { write: (s) => (out += s), progress: (s) => (out += s) },
      target.env,
    );
    const texts = filesUnder(dir);
    expect(texts.size).toBeGreaterThan(0);
    texts.set('output', out);
    expect(findSecrets(texts, configured, capture.tokens)).toEqual([]);
  });
});
